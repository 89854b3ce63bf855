import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { Loading, Skeleton } from '../../../ui/skeleton';
import { card } from './wallet-parts';

export function ListFrame({
  title,
  id,
  filters,
  state,
  onRetry,
  onExport,
  exporting,
  pager,
  children,
}: {
  title: string;
  id: string;
  filters: ReactNode;
  state: 'loading' | 'failed' | 'empty' | 'shown';
  onRetry: () => void;
  onExport: () => void;
  exporting: boolean;
  pager: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} aria-busy={state === 'loading'} className={card}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <h2 id={id} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          {title}
        </h2>
        <Button tone="secondary" busy={exporting} disabled={exporting} onClick={onExport}>
          Export CSV
        </Button>
      </div>
      <div
        className={css({
          display: 'flex',
          gap: '3',
          flexWrap: 'wrap',
          alignItems: 'flex-end',
          '& > *': { width: { base: '100%', desktop: '16rem' } },
        })}
      >
        {filters}
      </div>
      {state === 'loading' ? (
        <Loading label={`Loading the ${title.toLowerCase()}`}>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={onRetry}>
            Retry
          </Button>
        </div>
      ) : state === 'empty' ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Nothing matches these filters.</p>
      ) : (
        <>
          <div className={css({ overflowX: 'auto' })}>{children}</div>
          {pager}
        </>
      )}
    </section>
  );
}
