import { css } from 'styled-system/css';

/** An allowed page that is not built yet says so plainly, instead of looking broken or blocked. */
export default function ComingSoon({ title }: { title: string }) {
  return (
    <section
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '5', desktop: '8' }, display: 'grid', gap: '2' })}
    >
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{title}</h2>
      <p className={css({ color: 'fg.muted' })}>This page is not available yet. It is coming in a later release.</p>
    </section>
  );
}
