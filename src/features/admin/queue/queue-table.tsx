import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { ListMachine } from '../../../../machines/list.machine';
import { Button } from '../../../ui/button';
import { Loading, Skeleton } from '../../../ui/skeleton';
import type { QueueRef, QueueView } from './queue-types';

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});

/** The queue's items, oldest first, 20 a page, each with its two decisions; one decision at a time. */
export function QueueTable<Item>({ admin, view }: { admin: QueueRef<Item>; view: QueueView<Item> }) {
  const queue = useSelector(admin, (s) => s.children.queue) as
    | ActorRefFrom<ListMachine<Item, Record<string, never>>>
    | undefined;
  const items = useSelector(queue, (s) => s?.context.items ?? []);
  const loading = useSelector(queue, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(queue, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(queue, (s) => s?.matches('empty') ?? false);
  const page = useSelector(queue, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(queue, (s) => s?.context.lastPage ?? 1);
  // one decision at a time: while one is open or on its way, every Approve and Reject waits
  const idle = useSelector(admin, (s) => s.matches({ decision: 'idle' }));
  const deciding = useSelector(admin, (s) => (s.hasTag('deciding') ? s.context.item : null));
  const loadingFile = useSelector(admin, (s) => s.hasTag('loadingFile'));
  const tools = {
    openFile: (item: Item, kind: string) => admin.send({ type: 'file.requested', item, kind }),
    loadingFile,
  };
  const headingId = `${view.key}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={loading}
      className={css({
        bg: 'bg',
        borderRadius: 'lg',
        p: { base: '4', desktop: '5' },
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr)',
        gap: '3',
      })}
    >
      <h2 id={headingId} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        {view.heading}
      </h2>
      {loading ? (
        <Loading label={`Loading ${view.noun}`}>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => queue?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : empty ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{view.empty}</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                {view.columns.map((c) => (
                  <th key={c.header}>{c.header}</th>
                ))}
                <th>
                  <span className={css({ srOnly: true })}>Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={view.keyOf(item)} aria-label={view.rowLabel(item)}>
                  {view.columns.map((c) => (
                    <td key={c.header} className={c.nowrap ? css({ whiteSpace: 'nowrap' }) : undefined}>
                      {c.cell(item, tools)}
                    </td>
                  ))}
                  <td>
                    <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                      <Button
                        disabled={!idle}
                        busy={deciding === item}
                        aria-label={view.approve.name(item)}
                        onClick={() => admin.send({ type: 'approve.started', item })}
                      >
                        {view.approve.label}
                      </Button>
                      <Button
                        tone="secondary"
                        disabled={!idle}
                        aria-label={view.reject.name(item)}
                        onClick={() => admin.send({ type: 'reject.started', item })}
                      >
                        {view.reject.label}
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {lastPage > 1 ? (
            <nav
              aria-label={`${view.heading}: pages`}
              className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', pt: '2' })}
            >
              <Button
                tone="secondary"
                disabled={page <= 1}
                onClick={() => queue?.send({ type: 'page.requested', page: page - 1 })}
              >
                Previous
              </Button>
              <span className={css({ fontSize: 'sm' })}>
                Page {page} of {lastPage}
              </span>
              <Button
                tone="secondary"
                disabled={page >= lastPage}
                onClick={() => queue?.send({ type: 'page.requested', page: page + 1 })}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </div>
      )}
    </section>
  );
}
