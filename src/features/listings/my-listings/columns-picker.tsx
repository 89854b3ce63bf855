import { useSelector } from '@xstate/react';
import { INVENTORY_COLUMNS } from '../../../../machines/inventory.machine';
import { Dropdown } from '../../../ui/dropdown';
import { COLUMN_OPTIONS } from './columns';
import { useInventory } from './inventory-context';

/** The columns shown (saved by the field settings, page `my-listings`); the match and the actions always show. */
export function ColumnsPicker() {
  const inventory = useInventory();
  const hidden = useSelector(inventory, (s) => s.context.hidden);
  // the saved columns are still loading: a change now would be dropped, then overwritten by them
  const loading = useSelector(inventory, (s) => s.matches({ columns: 'loading' }));
  const visible = INVENTORY_COLUMNS.filter((c) => !hidden.includes(c));
  return (
    <Dropdown
      multiple
      label="Columns"
      disabled={loading}
      searchable={false}
      options={COLUMN_OPTIONS}
      value={visible}
      onChange={(next) => {
        for (const column of INVENTORY_COLUMNS)
          if (next.includes(column) !== visible.includes(column)) inventory.send({ type: 'columns.toggled', column });
      }}
    />
  );
}
