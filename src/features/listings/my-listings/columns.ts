import { INVENTORY_COLUMNS, type InventoryColumn, type InventorySort } from '../../../../machines/inventory.machine';
import type { SplitType } from '../../../../machines/listings-api';
import type { Option } from '../../../ui/dropdown';

export const COLUMN_LABELS: Readonly<Record<InventoryColumn, string>> = {
  category: 'Category',
  block: 'Block',
  row: 'Row',
  ticket_type: 'Type',
  quantity: 'Qty',
  sold: 'Sold',
  split: 'Split',
  price: 'Price',
  face_value: 'Face value',
  status: 'Status',
};

/** Each column's width at 1280 px and up (the match takes what is left): a one-line row's cells fit their words. */
export const COLUMN_WIDTHS: Readonly<Record<InventoryColumn, string>> = {
  category: '8.25rem',
  block: '4.5rem',
  row: '2.5rem',
  ticket_type: '2.75rem',
  quantity: '2.5rem',
  sold: '2.75rem',
  split: '5rem',
  price: '5.25rem',
  face_value: '5.5rem',
  status: '5.25rem',
};

/** A split in the grid's narrow column, in words a broker reads at a glance (the whole rule in its title). */
export const SPLIT_SHORT: Readonly<Record<SplitType, string>> = {
  any: 'Any',
  pairs: 'Pairs',
  avoid_single: 'No single',
  all_together: 'All together',
};

export const COLUMN_OPTIONS: Option<InventoryColumn>[] = INVENTORY_COLUMNS.map((value) => ({
  value,
  label: value === 'ticket_type' ? 'Ticket type' : value === 'quantity' ? 'Quantity' : COLUMN_LABELS[value],
}));

export const SORT_OPTIONS: Option<InventorySort>[] = [
  { value: 'match_date', label: 'Match date, soonest first' },
  { value: 'match_date_desc', label: 'Match date, latest first' },
  { value: 'created_desc', label: 'Newest listings first' },
  { value: 'price_asc', label: 'Price, lowest first' },
  { value: 'price_desc', label: 'Price, highest first' },
  { value: 'quantity_desc', label: 'Most tickets first' },
];
