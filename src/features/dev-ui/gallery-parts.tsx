import { type ReactNode, useId } from 'react';
import { css } from 'styled-system/css';

/** A piece of the kit: its states side by side. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '3' })}>
        {title}
      </h2>
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', desktop: 'repeat(auto-fill, minmax(300px, 1fr))' },
          gap: '4',
        })}
      >
        {children}
      </div>
    </section>
  );
}

/** One state of a piece, on a card with a visible caption that also names it. */
export function Demo({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '3',
        p: '4',
        bg: 'bg',
        border: '1px solid {colors.border}',
        borderRadius: 'lg',
        minWidth: 0,
      })}
    >
      <h3 id={id} className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' })}>
        {title}
      </h3>
      {children}
    </section>
  );
}
