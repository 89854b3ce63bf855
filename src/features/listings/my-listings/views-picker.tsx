import { useMachine, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import { INVENTORY_COLUMNS, type InventoryColumn, type InventoryFilters } from '../../../../machines/inventory.machine';
import { inventoryViewsMachine, type ListingView } from '../../../../machines/inventory-views.machine';
import { notify, useNotify } from '../../../app/notify-bridge';
import { Button } from '../../../ui/button';
import { Dropdown } from '../../../ui/dropdown';
import { FormFooter } from '../../../ui/form-footer';
import { Modal } from '../../../ui/modal';
import { TextField } from '../../../ui/text-field';
import { useInventory, useList } from './inventory-context';

const filtersOfView = (v: ListingView): InventoryFilters => ({
  q: v.filters.q ?? '',
  date_from: v.filters.date_from ?? null,
  date_to: v.filters.date_to ?? null,
  status: v.filters.status ?? null,
  ticket_type_id: v.filters.ticket_type_id ?? null,
});

/** The seller's saved views (filters, sort, columns): choose one to apply it, save the current one under a name. */
export function ViewsPicker({ onApplied }: { onApplied: () => void }) {
  const inventory = useInventory();
  const list = useList();
  const [state, send, actor] = useMachine(inventoryViewsMachine);
  useNotify(actor);
  useEffect(() => {
    const sub = actor.on('view.done', ({ message }) => notify({ level: 'success', message }));
    return () => sub.unsubscribe();
  }, [actor]);
  const filters = useSelector(list, (s) => s?.context.filters);
  const sort = useSelector(list, (s) => s?.context.sort ?? 'match_date');
  const hidden = useSelector(inventory, (s) => s.context.hidden);
  const [chosen, setChosen] = useState<number | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const busy = state.hasTag('busy');
  const views = state.context.views;

  const apply = (id: number | null) => {
    setChosen(id);
    const view = views.find((v) => v.id === id);
    if (!view || !list) return;
    inventory.send({ type: 'selection.cleared' });
    list.send({ type: 'filters.changed', filters: filtersOfView(view) });
    list.send({ type: 'sort.changed', sort: view.sort });
    for (const column of INVENTORY_COLUMNS)
      if (view.hidden.includes(column) !== hidden.includes(column)) inventory.send({ type: 'columns.toggled', column });
    onApplied();
  };
  const save = (e?: FormEvent) => {
    e?.preventDefault();
    if (!filters || name.trim() === '') return;
    const f = filters;
    send({
      type: 'view.saved',
      view: {
        name: name.trim(),
        sort,
        hidden: hidden.filter((c: InventoryColumn) => INVENTORY_COLUMNS.includes(c)),
        filters: {
          ...(f.q.trim() ? { q: f.q.trim() } : {}),
          ...(f.date_from ? { date_from: f.date_from } : {}),
          ...(f.date_to ? { date_to: f.date_to } : {}),
          ...(f.status ? { status: f.status } : {}),
          ...(f.ticket_type_id ? { ticket_type_id: f.ticket_type_id } : {}),
        },
      },
    });
    setNaming(false);
  };
  return (
    <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end', '& > button': { whiteSpace: 'nowrap' } })}>
      <div className={css({ flex: 1, minWidth: '8rem' })}>
        <Dropdown
          label="View"
          placeholder={state.matches('failed') ? 'Views not loaded' : 'Choose a saved view'}
          searchable={false}
          disabled={busy || state.matches('loading')}
          options={views.map((v) => ({ value: v.id, label: v.name }))}
          value={chosen}
          onChange={apply}
        />
      </div>
      <Button tone="secondary" disabled={busy} onClick={() => setNaming(true)}>
        Save view
      </Button>
      {chosen !== null ? (
        <Button
          tone="ghost"
          disabled={busy}
          onClick={() => {
            send({ type: 'view.deleted', id: chosen });
            setChosen(null);
          }}
        >
          Delete view
        </Button>
      ) : null}
      <Modal
        open={naming}
        onClose={() => setNaming(false)}
        title="Save this view"
        footer={
          <FormFooter
            valid={name.trim() !== '' && !busy}
            submitting={busy}
            submitLabel="Save view"
            onCancel={() => setNaming(false)}
            onSubmit={() => save()}
          />
        }
      >
        <form onSubmit={save}>
          <TextField label="Name" maxLength={60} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '2' })}>
            The filters, sort and columns shown now. A name you already use is replaced.
          </p>
        </form>
      </Modal>
    </div>
  );
}
