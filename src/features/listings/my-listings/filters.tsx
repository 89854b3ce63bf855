import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { css } from 'styled-system/css';
import type { InventoryFilters } from '../../../../machines/inventory.machine';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker';
import { Dropdown } from '../../../ui/dropdown';
import { TextField } from '../../../ui/text-field';
import { STATUS_OPTIONS, TICKET_TYPE_OPTIONS } from '../listing-format';
import { SORT_OPTIONS } from './columns';
import { ColumnsPicker } from './columns-picker';
import { useInventory, useList } from './inventory-context';
import { ViewsPicker } from './views-picker';

/** The list's filters, sort, columns and saved views, in one band above the grid. A new filter clears the selection. */
export function Filters() {
  const inventory = useInventory();
  const list = useList();
  const filters = useSelector(list, (s) => s?.context.filters);
  const sort = useSelector(list, (s) => s?.context.sort ?? 'match_date');
  // a view applied puts its filters in the fields: they are drawn again from the list's
  const [drawn, setDrawn] = useState(0);
  if (!list || !filters) return null;
  const set = (changes: Partial<InventoryFilters>) => {
    inventory.send({ type: 'selection.cleared' });
    list.send({ type: 'filters.changed', filters: { ...filters, ...changes } });
  };
  return (
    <div className={band}>
      <FilterFields key={drawn} filters={filters} set={set} />
      <Dropdown
        label="Sort by"
        searchable={false}
        options={SORT_OPTIONS}
        value={sort}
        onChange={(value) => list.send({ type: 'sort.changed', sort: value ?? 'match_date' })}
      />
      <ColumnsPicker />
      <ViewsPicker onApplied={() => setDrawn((n) => n + 1)} />
    </div>
  );
}

function FilterFields({ filters, set }: { filters: InventoryFilters; set: (c: Partial<InventoryFilters>) => void }) {
  const [q, setQ] = useState(filters.q);
  const search = (e: FormEvent) => {
    e.preventDefault();
    set({ q });
  };
  return (
    <>
      <form
        aria-label="Filter listings"
        onSubmit={search}
        className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}
      >
        <div className={css({ flex: 1, minWidth: 0 })}>
          <TextField
            label="Match"
            type="search"
            placeholder="Name, team or competition"
            maxLength={100}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
          />
        </div>
        <Button type="submit" tone="secondary">
          Search
        </Button>
      </form>
      <DatePicker
        mode="range"
        label="Match dates"
        defaultValue={filters.date_from && filters.date_to ? { start: filters.date_from, end: filters.date_to } : null}
        onChange={({ start, end }) => set({ date_from: start, date_to: end })}
      />
      <Dropdown
        label="Status"
        placeholder="All"
        searchable={false}
        options={STATUS_OPTIONS}
        value={filters.status}
        onChange={(status) => set({ status })}
      />
      <Dropdown
        label="Ticket type"
        placeholder="All"
        searchable={false}
        options={TICKET_TYPE_OPTIONS}
        value={filters.ticket_type_id}
        onChange={(ticket_type_id) => set({ ticket_type_id })}
      />
    </>
  );
}

const band = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: '2',
  display: 'grid',
  gap: '2',
  alignItems: 'end',
  gridTemplateColumns: {
    base: 'repeat(auto-fit, minmax(min(100%, 13rem), 1fr))',
    desktop: 'minmax(12rem, 2fr) repeat(5, minmax(0, 1fr)) minmax(15.5rem, 2fr)',
  },
});
