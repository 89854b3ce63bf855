import { useVirtualizer } from '@tanstack/react-virtual';
import { useSelector } from '@xstate/react';
import { type KeyboardEvent, type MouseEvent, useEffect, useLayoutEffect, useRef } from 'react';
import { css } from 'styled-system/css';
import { INVENTORY_COLUMNS, type InventoryColumn } from '../../../../machines/inventory.machine';
import { Button } from '../../../ui/button';
import { Loading, Skeleton } from '../../../ui/skeleton';
import { muted } from '../listing-styles';
import { COLUMN_LABELS, COLUMN_WIDTHS } from './columns';
import { gridTable, ROW_HEIGHT } from './grid-styles';
import { useInventory, useList } from './inventory-context';
import { ListingRow } from './listing-row';
import { SelectionBar } from './selection-bar';
import { UndoBar } from './undo-bar';

/**
 * The seller's listings as a dense grid, one line each, virtualised: only the rows in view (and a few around) are in
 * the DOM, and the next page is read as the end of what is loaded comes into view. Keyboard: Up and Down move
 * between the rows' same control, Space ticks a row, Enter edits a price; Shift-click ticks a range.
 */
export function ListingsGrid() {
  const inventory = useInventory();
  const list = useList();
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const total = useSelector(list, (s) => s?.context.total ?? null);
  const state = useSelector(list, (s) => {
    if (!s || s.hasTag('loadingFirst')) return 'loading' as const;
    if (s.matches('failed')) return 'failed' as const;
    if (s.matches('empty')) return 'empty' as const;
    return 'shown' as const;
  });
  const canLoadMore = useSelector(list, (s) => s?.matches('ready') ?? false);
  const loadingMore = useSelector(list, (s) => s?.hasTag('loadingMore') ?? false);
  const failedMore = useSelector(list, (s) => s?.matches('failedMore') ?? false);
  const hidden = useSelector(inventory, (s) => s.context.hidden);
  const selected = useSelector(inventory, (s) => s.context.selected);
  const allMatching = useSelector(inventory, (s) => s.context.allMatching);
  const scroller = useRef<HTMLDivElement>(null);
  const lastClicked = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => items[i]?.id ?? i,
    overscan: 10,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const padTop = virtualRows[0]?.start ?? 0;
  const padBottom = virtualRows.length > 0 ? virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0) : 0;
  const lastShown = virtualRows.at(-1)?.index ?? 0;
  useEffect(() => {
    if (canLoadMore && lastShown >= items.length - 15) list?.send({ type: 'list.moreRequested' });
  }, [canLoadMore, lastShown, items.length, list]);

  // the grid fills the window below its top, so that a laptop's screen shows 20 rows and more (a phone: 70% of it)
  const shownState = state;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || shownState !== 'shown') return;
    const fit = () => {
      if (window.innerWidth <= 768) el.style.height = '';
      else
        el.style.height = `${Math.max(320, window.innerHeight - el.getBoundingClientRect().top - window.scrollY - 12)}px`;
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [shownState]);

  const shown = (column: InventoryColumn) => !hidden.includes(column);
  const columns = INVENTORY_COLUMNS.filter(shown);
  const width = columns.length + 4;
  const allIds = items.map((l) => l.id);
  const allLoadedSelected = allIds.length > 0 && (allMatching || selected.length === allIds.length);
  const selectedSet = new Set(selected);

  const check = (index: number, id: number) => (e: MouseEvent<HTMLInputElement>) => {
    const from = lastClicked.current;
    lastClicked.current = index;
    if (e.shiftKey && from !== null) {
      const [a, b] = from < index ? [from, index] : [index, from];
      const range = allIds.slice(a, b + 1);
      inventory.send({ type: 'selection.set', ids: [...new Set([...selected, ...range])] });
    } else inventory.send({ type: 'selection.toggled', id });
  };

  // Up and Down move to the same control of the row above or below, scrolling it into view
  const move = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const target = e.target as HTMLElement;
    const col = target.dataset.col;
    if (!col || (target.tagName === 'INPUT' && col === 'price')) return;
    const row = target.closest('tr');
    const index = Number(row?.dataset.index);
    if (!row || Number.isNaN(index)) return;
    const next = index + (e.key === 'ArrowDown' ? 1 : -1);
    if (next < 0 || next >= items.length) return;
    e.preventDefault();
    virtualizer.scrollToIndex(next, { align: 'auto' });
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLElement>(`tr[data-index="${next}"] [data-col="${col}"]`)?.focus(),
    );
  };

  return (
    <section aria-labelledby="inventory-listings" aria-busy={state === 'loading'} className={panel}>
      <h2 id="inventory-listings" className={css({ srOnly: true })}>
        Your listings
      </h2>
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap', minHeight: '20px' })}>
        <UndoBar />
        <SelectionBar />
        {total !== null && state === 'shown' ? (
          <span className={css({ color: 'fg.muted', fontSize: 'sm', ml: 'auto' })}>
            {items.length.toLocaleString('en-GB')} of {total.toLocaleString('en-GB')} loaded
          </span>
        ) : null}
      </div>
      {state === 'loading' ? (
        <Loading label="Loading your listings">
          {[1, 2, 3, 4, 5, 6].map((i) => (
            <Skeleton key={i} height="28px" />
          ))}
        </Loading>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => list?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : state === 'empty' ? (
        <p className={muted}>No listings match these filters.</p>
      ) : (
        <>
          <div ref={scroller} data-testid="inventory-scroller" className={scrollerStyle}>
            <table aria-label="Listings" aria-rowcount={total !== null ? total + 1 : -1} className={gridTable}>
              <colgroup>
                <col style={{ width: '2rem' }} />
                <col />
                <col style={{ width: '4.75rem' }} />
                {columns.map((c) => (
                  <col key={c} style={{ width: COLUMN_WIDTHS[c] }} />
                ))}
                <col style={{ width: '2.25rem' }} />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all loaded listings"
                      checked={allLoadedSelected}
                      className={css({ width: '16px', height: '16px', m: '1' })}
                      onChange={() =>
                        inventory.send(
                          allLoadedSelected ? { type: 'selection.cleared' } : { type: 'selection.set', ids: allIds },
                        )
                      }
                    />
                  </th>
                  <th scope="col">Match</th>
                  <th scope="col">Date</th>
                  {columns.map((c) => (
                    <th
                      key={c}
                      scope="col"
                      className={
                        c === 'price' || c === 'quantity' || c === 'sold' || c === 'face_value' ? 'num' : undefined
                      }
                    >
                      {COLUMN_LABELS[c]}
                    </th>
                  ))}
                  <th scope="col">
                    <span className={css({ srOnly: true })}>Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody onKeyDown={move}>
                {padTop > 0 ? (
                  <tr>
                    <td colSpan={width} style={{ height: padTop, padding: 0, border: 'none' }} />
                  </tr>
                ) : null}
                {virtualRows.map((v) => {
                  const listing = items[v.index];
                  if (!listing) return null;
                  return (
                    <ListingRow
                      key={v.key}
                      index={v.index}
                      measure={virtualizer.measureElement}
                      listing={listing}
                      shown={shown}
                      checked={allMatching || selectedSet.has(listing.id)}
                      onCheck={check(v.index, listing.id)}
                    />
                  );
                })}
                {padBottom > 0 ? (
                  <tr>
                    <td colSpan={width} style={{ height: padBottom, padding: 0, border: 'none' }} />
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          {loadingMore ? (
            <p role="status" className={muted}>
              Loading more listings…
            </p>
          ) : null}
          {failedMore ? (
            <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
              <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
              <Button tone="secondary" onClick={() => list?.send({ type: 'list.retried' })}>
                Retry
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

const panel = css({
  bg: 'bg',
  borderRadius: 'lg',
  px: '2',
  py: '1',
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '1',
  minWidth: 0,
});
// as tall as the window leaves below the filters, so that a laptop's screen shows 20 rows and more
const scrollerStyle = css({
  height: '70vh',
  overflow: 'auto',
  minWidth: 0,
});
