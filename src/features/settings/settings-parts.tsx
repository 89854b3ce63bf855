import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';

/** A settings page's card. */
export function Panel({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      className={css({
        bg: 'bg',
        borderRadius: 'lg',
        p: { base: '4', desktop: '6' },
        display: 'grid',
        gap: '4',
        minWidth: 0,
        overflowWrap: 'anywhere',
      })}
    >
      {children}
    </section>
  );
}

/** Rows of skeletons the shape of a list or form while it loads. */
export function PanelLoading({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <Loading label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <Skeleton key={i} height="42px" />
      ))}
    </Loading>
  );
}

/** A load that failed: its message and Retry. */
export function PanelFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className={css({ display: 'grid', gap: '3', justifyItems: 'start' })}>
      <p className={css({ color: 'error' })}>{message}</p>
      <Button tone="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** Nothing to list yet: what it is and what to do. */
export function PanelEmpty({ children }: { children: ReactNode }) {
  return <p className={css({ color: 'fg.muted' })}>{children}</p>;
}

export const formGrid = css({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 16rem), 1fr))',
  gap: '4',
});
