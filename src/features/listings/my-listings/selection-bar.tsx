import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ListingStatus } from '../../../../machines/inventory.machine';
import { Button } from '../../../ui/button';
import { useInventory, useList } from './inventory-context';

/**
 * The ticked listings' actions: a new price, publish, unpublish, delete; and 'select all that match', which takes
 * every listing the filters match, loaded or not (the server reads them in the change's transaction).
 */
export function SelectionBar() {
  const inventory = useInventory();
  const list = useList();
  const selected = useSelector(inventory, (s) => s.context.selected);
  const allMatching = useSelector(inventory, (s) => s.context.allMatching);
  const busy = useSelector(inventory, (s) => s.hasTag('changing'));
  const total = useSelector(list, (s) => s?.context.total ?? 0);
  const loaded = useSelector(list, (s) => s?.context.items.length ?? 0);
  const filters = useSelector(list, (s) => s?.context.filters);
  if (selected.length === 0 && !allMatching) return null;
  const target = allMatching && filters ? { ids: [], filter: filters } : { ids: selected };
  const status = (status: ListingStatus) => inventory.send({ type: 'status.requested', ...target, status });
  const count = allMatching ? total : selected.length;
  return (
    <div role="toolbar" aria-label="Selected listings" className={bar}>
      <span className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        {allMatching
          ? `All ${count.toLocaleString('en-GB')} matching listings selected`
          : `${count.toLocaleString('en-GB')} selected`}
      </span>
      {!allMatching && selected.length === loaded && total > loaded ? (
        <Button tone="ghost" onClick={() => inventory.send({ type: 'selection.allMatching' })}>
          Select all {total.toLocaleString('en-GB')} that match
        </Button>
      ) : null}
      <Button tone="secondary" disabled={busy} onClick={() => inventory.send({ type: 'price.requested', ...target })}>
        Change price
      </Button>
      <Button tone="secondary" disabled={busy} onClick={() => status('published')}>
        Publish
      </Button>
      <Button tone="secondary" disabled={busy} onClick={() => status('unpublished')}>
        Unpublish
      </Button>
      <Button tone="secondary" disabled={busy} onClick={() => inventory.send({ type: 'delete.requested', ...target })}>
        Delete
      </Button>
      <Button tone="ghost" onClick={() => inventory.send({ type: 'selection.cleared' })}>
        Clear selection
      </Button>
    </div>
  );
}

const bar = css({
  display: 'flex',
  gap: '2',
  flexWrap: 'wrap',
  alignItems: 'center',
  '& button': { minHeight: '28px', py: '0', px: '2.5', whiteSpace: 'nowrap' },
});
