import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { ListMachine } from '../../../../machines/list.machine';
import { Button } from '../../../ui/button';
import { type ListColumn, ListPager, ListSection, listStatus } from '../../../ui/list-section';
import type { QueueRef, QueueView } from './queue-types';

/** The queue's items, oldest first, 20 a page, each with its two decisions; one decision at a time. */
export function QueueTable<Item>({ admin, view }: { admin: QueueRef<Item>; view: QueueView<Item> }) {
  const queue = useSelector(admin, (s) => s.children.queue) as
    | ActorRefFrom<ListMachine<Item, Record<string, never>>>
    | undefined;
  const items = useSelector(queue, (s) => s?.context.items ?? []);
  const status = useSelector(queue, listStatus);
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
  const columns: ListColumn<Item>[] = [
    ...view.columns.map((c, i) => ({
      header: c.header,
      nowrap: c.nowrap,
      card: i === 0 ? ('title' as const) : ('field' as const),
      cell: (item: Item) => c.cell(item, tools),
    })),
    {
      header: 'Decision',
      srHeader: true,
      card: 'actions',
      cell: (item) => (
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
      ),
    },
  ];
  return (
    <ListSection
      title={view.heading}
      titleId={`${view.key}-heading`}
      status={status}
      loadingLabel={`Loading ${view.noun}`}
      empty={view.empty}
      onRetry={() => queue?.send({ type: 'list.retried' })}
      label={view.heading}
      columns={columns}
      rows={items}
      rowKey={view.keyOf}
      rowProps={(item) => ({ 'aria-label': view.rowLabel(item) })}
      pager={
        lastPage > 1 ? (
          <ListPager
            label={`${view.heading}:`}
            page={page}
            lastPage={lastPage}
            onPage={(p) => queue?.send({ type: 'page.requested', page: p })}
          />
        ) : null
      }
    />
  );
}
