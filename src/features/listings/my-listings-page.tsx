import { useVirtualizer } from '@tanstack/react-virtual';
import { useMachine, useSelector } from '@xstate/react';
import {
  createContext,
  type FormEvent,
  type ReactNode,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type DetailKind,
  INVENTORY_COLUMNS,
  type InventoryColumn,
  type InventoryFilters,
  type InventorySort,
  type inventoryListMachine,
  inventoryMachine,
  type Listing,
  type ListingDetail,
  type ListingUpdate,
} from '../../../machines/inventory.machine';
import { type ListingFile, newPriceProblem, PRICE_BOUNDS } from '../../../machines/listings-api';
import { TICKET_FILE_TYPES, ticketFilesMachine } from '../../../machines/ticket-files.machine';
import { notify, useNotify } from '../../app/notify-bridge';
import { useViewActor } from '../../app/view-actor';
import { formatFileSize } from '../../lib/file-rules';
import { formatDate } from '../../lib/format-date';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Drawer } from '../../ui/drawer';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FieldLabel, fieldStack } from '../../ui/field';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { CurrencyInput, NumericInput } from '../../ui/numeric-input';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { TicketTypeIcon } from '../../ui/ticket-type-icon';
import { InHandDateField } from './in-hand-date-field';
import { matchWhen, money, SPLIT_LABELS, STATUS_LABELS, STATUS_OPTIONS, TICKET_TYPE_OPTIONS } from './listing-format';
import { card, muted, sectionTitle, stack } from './listing-styles';
import { TemplatePicker, type TemplatesStatus } from './template-picker';

type InventoryRef = ActorRefFrom<typeof inventoryMachine>;
type ListRef = ActorRefFrom<typeof inventoryListMachine>;

const InventoryContext = createContext<InventoryRef | null>(null);
function useInventory(): InventoryRef {
  const inventory = useContext(InventoryContext);
  if (!inventory) throw new Error('useInventory needs the Inventory page');
  return inventory;
}
function useList(): ListRef | undefined {
  return useSelector(useInventory(), (s) => s.children.listings) as ListRef | undefined;
}

const COLUMN_LABELS: Readonly<Record<InventoryColumn, string>> = {
  category: 'Category',
  block: 'Block',
  row: 'Row',
  ticket_type: 'Ticket type',
  quantity: 'Quantity',
  sold: 'Sold',
  split: 'Split',
  price: 'Price',
  face_value: 'Face value',
  status: 'Status',
};
const COLUMN_OPTIONS: Option<InventoryColumn>[] = INVENTORY_COLUMNS.map((value) => ({
  value,
  label: COLUMN_LABELS[value],
}));
const SORT_OPTIONS: Option<InventorySort>[] = [
  { value: 'match_date', label: 'Match date, soonest first' },
  { value: 'match_date_desc', label: 'Match date, latest first' },
  { value: 'created_desc', label: 'Newest listings first' },
  { value: 'price_asc', label: 'Price, lowest first' },
  { value: 'price_desc', label: 'Price, highest first' },
  { value: 'quantity_desc', label: 'Most tickets first' },
];

/** my-listings, Inventory: the seller's listings grouped by match, filtered, sorted, changed one by one or together. */
export default function MyListingsPage() {
  const inventory = useViewActor(inventoryMachine, 'inventory');
  useEffect(() => {
    if (!inventory) return;
    const sub = inventory.on('change.done', ({ message }) => notify({ level: 'success', message }));
    return () => sub.unsubscribe();
  }, [inventory]);
  if (!inventory) return null;
  return (
    <InventoryContext.Provider value={inventory}>
      <div className={stack}>
        <Filters />
        <Listings />
        <ChangeDialog />
        <DetailDrawer />
      </div>
    </InventoryContext.Provider>
  );
}

function Filters() {
  const list = useList();
  const filters = useSelector(list, (s) => s?.context.filters);
  const sort = useSelector(list, (s) => s?.context.sort ?? 'match_date');
  const [q, setQ] = useState('');
  if (!list || !filters) return null;
  const set = (changes: Partial<InventoryFilters>) =>
    list.send({ type: 'filters.changed', filters: { ...filters, ...changes } });
  const search = (e: FormEvent) => {
    e.preventDefault();
    set({ q });
  };
  return (
    <form aria-label="Filter listings" onSubmit={search} className={card}>
      <div
        className={css({
          display: 'grid',
          gap: '3',
          alignItems: 'end',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 13rem), 1fr))',
        })}
      >
        <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
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
        </div>
        <DatePicker
          mode="range"
          label="Match dates"
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
        <Dropdown
          label="Sort by"
          searchable={false}
          options={SORT_OPTIONS}
          value={sort}
          onChange={(value) => list.send({ type: 'sort.changed', sort: value ?? 'match_date' })}
        />
        <Columns />
      </div>
    </form>
  );
}

function Columns() {
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

type Row =
  | { kind: 'match'; key: string; first: Listing; count: number }
  | { kind: 'listing'; key: string; listing: Listing };

/** The listings with a heading row before each match (rows come sorted so that a match's listings are together). */
function groupRows(items: readonly Listing[]): Row[] {
  const rows: Row[] = [];
  let heading = null as Extract<Row, { kind: 'match' }> | null;
  for (const listing of items) {
    if (heading?.first.match_id !== listing.match_id) {
      heading = { kind: 'match', key: `m${listing.match_id}-${rows.length}`, first: listing, count: 0 };
      rows.push(heading);
    }
    heading.count += 1;
    rows.push({ kind: 'listing', key: `l${listing.id}`, listing });
  }
  return rows;
}

const ROW_HEIGHT = 52;
const MATCH_HEIGHT = 44;

function Listings() {
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
  const rows = useMemo(() => groupRows(items), [items]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]?.kind === 'match' ? MATCH_HEIGHT : ROW_HEIGHT),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 12,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const padTop = virtualRows[0]?.start ?? 0;
  const padBottom = virtualRows.length > 0 ? virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0) : 0;
  const lastShown = virtualRows.at(-1)?.index ?? 0;
  // the next page loads as the end of what is loaded comes into view
  useEffect(() => {
    if (canLoadMore && lastShown >= rows.length - 30) list?.send({ type: 'list.moreRequested' });
  }, [canLoadMore, lastShown, rows.length, list]);

  const shown = (column: InventoryColumn) => !hidden.includes(column);
  const allIds = items.map((l) => l.id);
  const allSelected = allIds.length > 0 && selected.length === allIds.length;
  const width = INVENTORY_COLUMNS.filter(shown).length + 2;

  return (
    <section aria-labelledby="inventory-listings" aria-busy={state === 'loading'} className={card}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <h2 id="inventory-listings" className={sectionTitle}>
          Your listings
        </h2>
        {total !== null && state === 'shown' ? (
          <span className={muted}>
            {items.length.toLocaleString('en-GB')} of {total.toLocaleString('en-GB')} shown
          </span>
        ) : null}
      </div>
      <SelectionBar />
      {state === 'loading' ? (
        <Loading label="Loading your listings">
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height="40px" />
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
          <div
            ref={scroller}
            data-testid="inventory-scroller"
            className={css({ height: { base: '70vh', desktop: '60vh' }, overflow: 'auto', minWidth: 0 })}
          >
            <table aria-label="Listings" aria-rowcount={total !== null ? total + 1 : -1} className={table}>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all loaded listings"
                      checked={allSelected}
                      onChange={() =>
                        inventory.send(
                          allSelected ? { type: 'selection.cleared' } : { type: 'selection.set', ids: allIds },
                        )
                      }
                    />
                  </th>
                  {INVENTORY_COLUMNS.filter(shown).map((c) => (
                    <th key={c} scope="col">
                      {COLUMN_LABELS[c]}
                    </th>
                  ))}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {/* the rows above and below the window are one empty row each, as tall as they would be */}
                {padTop > 0 ? (
                  <tr>
                    <td colSpan={width} style={{ height: padTop, padding: 0, border: 'none' }} />
                  </tr>
                ) : null}
                {virtualRows.map((v) => {
                  const row = rows[v.index];
                  if (!row) return null;
                  return row.kind === 'match' ? (
                    <MatchRow
                      key={v.key}
                      index={v.index}
                      measure={virtualizer.measureElement}
                      first={row.first}
                      count={row.count}
                      width={width}
                    />
                  ) : (
                    <ListingRow
                      key={v.key}
                      index={v.index}
                      measure={virtualizer.measureElement}
                      listing={row.listing}
                      shown={shown}
                      checked={selected.includes(row.listing.id)}
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

// fixed layout: the table is as wide as its card and its cells wrap, so nothing scrolls sideways
const table = css({
  width: '100%',
  tableLayout: 'fixed',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& thead th': {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    bg: 'bg',
    textAlign: 'left',
    fontWeight: 'semibold',
    color: 'fg.muted',
    py: '2',
    px: '1.5',
    overflowWrap: 'anywhere',
  },
  '& td': {
    py: '1.5',
    px: '1.5',
    borderTop: '1px solid {colors.border}',
    verticalAlign: 'middle',
    overflowWrap: 'anywhere',
  },
  // on a phone each listing is a small card of its cells
  _phone: {
    display: 'block',
    '& thead': { display: 'none' },
    '& tbody, & tr, & td, & th': { display: 'block' },
    '& tr': { py: '2', borderTop: '1px solid {colors.border}' },
    '& td': { border: 'none', py: '0.5', px: '0' },
  },
});
const cellLabel = css({ display: 'none', _phone: { display: 'inline', color: 'fg.muted', mr: '1' } });

type Measure = (node: Element | null) => void;

function MatchRow({
  first,
  count,
  width,
  index,
  measure,
}: {
  first: Listing;
  count: number;
  width: number;
  index: number;
  measure: Measure;
}) {
  return (
    <tr ref={measure} data-index={index} className={css({ bg: 'bg.muted' })}>
      <th
        scope="colgroup"
        colSpan={width}
        className={css({ textAlign: 'left', py: '2.5', px: '2', overflowWrap: 'anywhere' })}
      >
        <span className={css({ fontWeight: 'semibold', mr: '2' })}>{first.match_name}</span>
        <span className={muted}>
          {matchWhen(first.match_date, first.match_time)} · {first.stadium_name} · {count}{' '}
          {count === 1 ? 'listing' : 'listings'}
        </span>
      </th>
    </tr>
  );
}

function ListingRow({
  listing: l,
  shown,
  checked,
  index,
  measure,
}: {
  listing: Listing;
  shown: (c: InventoryColumn) => boolean;
  checked: boolean;
  index: number;
  measure: Measure;
}) {
  const inventory = useInventory();
  const label = `${l.Category}, ${blockText(l.ticket_block)}, row ${l.row}`;
  const cells: Record<InventoryColumn, ReactNode> = {
    category: l.Category,
    block: l.ticket_block,
    row: l.row,
    ticket_type: (
      <span className={css({ display: 'inline-flex', gap: '1', alignItems: 'center' })}>
        <TicketTypeIcon typeId={l.ticket_type_id} name={l.Ticket_type} />
        <span className={css({ _phone: { display: 'none' } })}>{l.Ticket_type}</span>
      </span>
    ),
    quantity: l.quantity,
    sold: l.sold,
    split: SPLIT_LABELS[l.split_type],
    price: money(l.price, l.currency),
    face_value: l.face_value === null ? '-' : money(l.face_value, l.currency),
    status: STATUS_LABELS[l.status],
  };
  return (
    <tr ref={measure} data-index={index} aria-label={label} data-testid={`listing-${l.id}`}>
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${label}`}
          checked={checked}
          onChange={() => inventory.send({ type: 'selection.toggled', id: l.id })}
        />
      </td>
      {INVENTORY_COLUMNS.filter(shown).map((c) => (
        <td key={c} className={css({ overflowWrap: 'anywhere' })}>
          <span className={cellLabel}>{COLUMN_LABELS[c]}:</span>
          {cells[c]}
        </td>
      ))}
      <td className={css({ '& > button': { minHeight: '32px', px: '2' } })}>
        <Button tone="ghost" onClick={() => inventory.send({ type: 'edit.requested', id: l.id })}>
          Edit<span className={css({ srOnly: true })}> {label}</span>
        </Button>
        <Button tone="ghost" onClick={() => inventory.send({ type: 'price.requested', ids: [l.id] })}>
          Price<span className={css({ srOnly: true })}> of {label}</span>
        </Button>
        <Button
          tone="ghost"
          onClick={() =>
            inventory.send({
              type: 'status.requested',
              ids: [l.id],
              status: l.status === 'published' ? 'unpublished' : 'published',
            })
          }
        >
          {l.status === 'published' ? 'Unpublish' : 'Publish'}
          <span className={css({ srOnly: true })}> {label}</span>
        </Button>
        <Button tone="ghost" onClick={() => inventory.send({ type: 'detail.opened', listing: l, kind: 'logs' })}>
          Details<span className={css({ srOnly: true })}> of {label}</span>
        </Button>
        <Button tone="ghost" onClick={() => inventory.send({ type: 'delete.requested', ids: [l.id] })}>
          Delete<span className={css({ srOnly: true })}> {label}</span>
        </Button>
      </td>
    </tr>
  );
}

function SelectionBar() {
  const inventory = useInventory();
  const selected = useSelector(inventory, (s) => s.context.selected);
  const busy = useSelector(inventory, (s) => s.hasTag('changing'));
  if (selected.length === 0) return null;
  return (
    <div
      role="toolbar"
      aria-label="Selected listings"
      className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}
    >
      <span className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>{selected.length} selected</span>
      <Button tone="secondary" onClick={() => inventory.send({ type: 'price.requested', ids: selected })}>
        Update price
      </Button>
      <Button
        tone="secondary"
        disabled={busy}
        onClick={() => inventory.send({ type: 'status.requested', ids: selected, status: 'published' })}
      >
        Publish
      </Button>
      <Button
        tone="secondary"
        disabled={busy}
        onClick={() => inventory.send({ type: 'status.requested', ids: selected, status: 'unpublished' })}
      >
        Unpublish
      </Button>
      <Button tone="ghost" onClick={() => inventory.send({ type: 'selection.cleared' })}>
        Clear selection
      </Button>
    </div>
  );
}

/** The price or deletion to confirm, and the server's refusal when there is one. */
function ChangeDialog() {
  const inventory = useInventory();
  const change = useSelector(inventory, (s) => s.context.change);
  const open = useSelector(inventory, (s) => s.matches({ change: 'confirming' }) || s.matches({ change: 'refused' }));
  const sending = useSelector(inventory, (s) => s.hasTag('changing'));
  const error = useSelector(inventory, (s) => s.context.changeError);
  const list = useList();
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const [price, setPrice] = useState<number | null>(null);
  useEffect(() => {
    if (!open) setPrice(null);
  }, [open]);
  if (!change || (!open && !sending) || change.kind === 'status') {
    return error && change?.kind === 'status' ? (
      <Modal open onClose={() => inventory.send({ type: 'change.cancelled' })} title="Status not changed">
        <p role="alert">{error}</p>
      </Modal>
    ) : null;
  }
  const currency = items.find((l) => l.id === change.ids[0])?.currency ?? 'GBP';
  const cancel = () => inventory.send({ type: 'change.cancelled' });
  const many = change.ids.length > 1;
  const listing = items.find((l) => l.id === change.ids[0]);
  if (change.kind === 'edit')
    return listing ? (
      <EditDialog
        inventory={inventory}
        listing={listing}
        sending={sending}
        error={error}
        onCancel={cancel}
        onSave={(edit) => inventory.send({ type: 'change.confirmed', edit })}
      />
    ) : null;
  if (change.kind === 'delete')
    return (
      <Modal
        open
        onClose={cancel}
        title="Delete listing"
        footer={
          <FormFooter
            valid={!sending}
            submitting={sending}
            submitLabel="Delete"
            onCancel={cancel}
            onSubmit={() => inventory.send({ type: 'change.confirmed' })}
          />
        }
      >
        <p>This listing will no longer be on sale and leaves your inventory. Its sales stay in the history.</p>
        {error ? (
          <p role="alert" className={css({ color: 'error', mt: '3' })}>
            {error}
          </p>
        ) : null}
      </Modal>
    );
  // one new price is an amount of one currency: listings priced in several are priced apart (the server says so too)
  const currencies = [
    ...new Set(change.ids.map((id) => items.find((l) => l.id === id)?.currency).filter((c) => c !== undefined)),
  ].sort();
  const mixed = currencies.length > 1;
  return (
    <Modal
      open
      onClose={cancel}
      title={many ? `New price for ${change.ids.length} listings` : 'New price'}
      footer={
        <FormFooter
          valid={!mixed && price !== null && !newPriceProblem(price) && !sending}
          submitting={sending}
          submitLabel="Update price"
          onCancel={cancel}
          onSubmit={() => inventory.send({ type: 'change.confirmed', price: price ?? undefined })}
        />
      }
    >
      {mixed ? (
        <p role="status">
          These listings are priced in {currencies.join(', ')}: a new price is an amount in one currency. Choose
          listings of one currency to price them together.
        </p>
      ) : (
        <CurrencyInput
          label="Price per ticket"
          currency={currency}
          allowNegative={false}
          hint={PRICE_BOUNDS.text}
          error={newPriceProblem(price)}
          value={price}
          onValueChange={setPrice}
        />
      )}
      {error ? (
        <p role="alert" className={css({ color: 'error', mt: '3' })}>
          {error}
        </p>
      ) : null}
    </Modal>
  );
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === [...b].sort((x, y) => x - y)[i]);

/**
 * The listing's where and how many and its additional templates, edited in a dialog; only the fields changed are
 * sent (the templates as the whole new set).
 */
function EditDialog({
  inventory,
  listing: l,
  sending,
  error,
  onCancel,
  onSave,
}: {
  inventory: InventoryRef;
  listing: Listing;
  sending: boolean;
  error: string | null;
  onCancel: () => void;
  onSave: (edit: ListingUpdate) => void;
}) {
  const [block, setBlock] = useState(l.ticket_block);
  const [row, setRow] = useState(l.row);
  const [seats, setSeats] = useState(l.seats ?? '');
  const [quantity, setQuantity] = useState(String(l.quantity));
  const [notes, setNotes] = useState(l.notes ?? '');
  const [inHand, setInHand] = useState(l.in_hand_date ?? null);
  const [templateIds, setTemplateIds] = useState<number[]>(l.additional_template_ids);
  const templatesStatus = useSelector(inventory, (s) => (s.value as { templates: TemplatesStatus }).templates);
  const templates = useSelector(inventory, (s) => s.context.templates);
  const edit: ListingUpdate = {
    ...(block.trim() !== l.ticket_block ? { ticket_block: block.trim() } : {}),
    ...(row.trim() !== l.row ? { row: row.trim() } : {}),
    ...(seats.trim() !== (l.seats ?? '') ? { seats: seats.trim() || null } : {}),
    ...(quantity !== '' && Number(quantity) !== l.quantity ? { quantity: Number(quantity) } : {}),
    ...(notes !== (l.notes ?? '') ? { notes: notes || null } : {}),
    ...(inHand !== (l.in_hand_date ?? null) ? { in_hand_date: inHand } : {}),
    ...(sameIds(templateIds, l.additional_template_ids) ? {} : { template_ids: templateIds }),
  };
  const valid = Object.keys(edit).length > 0 && block.trim() !== '' && row.trim() !== '' && quantity !== '';
  return (
    <Modal
      open
      onClose={onCancel}
      title="Edit listing"
      footer={
        <FormFooter
          valid={valid && !sending}
          submitting={sending}
          submitLabel="Save"
          onCancel={onCancel}
          onSubmit={() => onSave(edit)}
        />
      }
    >
      <div className={stack}>
        <TextField
          label="Block"
          required
          maxLength={50}
          value={block}
          onChange={(e) => setBlock(e.currentTarget.value)}
        />
        <TextField label="Row" required maxLength={20} value={row} onChange={(e) => setRow(e.currentTarget.value)} />
        <TextField
          label="Seats (optional)"
          maxLength={100}
          value={seats}
          onChange={(e) => setSeats(e.currentTarget.value)}
        />
        <NumericInput
          label="Quantity"
          required
          allowDecimal={false}
          allowNegative={false}
          maxLength={4}
          value={quantity}
          onValueChange={setQuantity}
        />
        <TextField
          label="Notes (optional)"
          maxLength={1000}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
        />
        <InHandDateField value={inHand} matchDate={l.match_date} onChange={setInHand} />
        <TemplatePicker
          status={templatesStatus}
          templates={templates}
          onRetry={() => inventory.send({ type: 'templates.retried' })}
          value={templateIds}
          onChange={setTemplateIds}
          error={null}
        />
        {error ? (
          <p role="alert" className={css({ color: 'error' })}>
            {error}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}

const TABS: Array<{ kind: DetailKind; label: string }> = [
  { kind: 'logs', label: 'Logs' },
  { kind: 'history', label: 'History' },
  { kind: 'insights', label: 'Market insights' },
];

function DetailDrawer() {
  const inventory = useInventory();
  const detail = useSelector(inventory, (s) => s.context.detail);
  const data = useSelector(inventory, (s) => s.context.detailData);
  const loading = useSelector(inventory, (s) => s.hasTag('loadingDetail'));
  const failed = useSelector(inventory, (s) => s.matches({ detail: { open: 'failed' } }));
  const l = detail?.listing;
  return (
    <Drawer
      open={detail !== null}
      onClose={() => inventory.send({ type: 'detail.closed' })}
      title={l ? `${l.match_name}: ${l.Category}, ${blockText(l.ticket_block)}` : 'Listing'}
    >
      {l ? (
        <div className={stack}>
          <p className={muted}>
            {matchWhen(l.match_date, l.match_time)} · row {l.row} · {l.quantity} tickets, {l.sold} sold ·{' '}
            {money(l.price, l.currency)} each
          </p>
          <fieldset className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', border: 'none', p: 0, m: 0 })}>
            <legend className={css({ srOnly: true })}>Show</legend>
            {TABS.map((t) => (
              <Button
                key={t.kind}
                tone={detail?.kind === t.kind ? 'primary' : 'secondary'}
                aria-pressed={detail?.kind === t.kind}
                onClick={() => inventory.send({ type: 'detail.tabbed', kind: t.kind })}
              >
                {t.label}
              </Button>
            ))}
          </fieldset>
          {loading ? (
            <Loading label="Loading">
              {[1, 2, 3].map((i) => (
                <Skeleton key={i} height="32px" />
              ))}
            </Loading>
          ) : failed ? (
            <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
              <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
              <Button tone="secondary" onClick={() => inventory.send({ type: 'detail.retried' })}>
                Retry
              </Button>
            </div>
          ) : data ? (
            <DetailBody data={data} currency={l.currency} ticketId={l.id} />
          ) : null}
        </div>
      ) : null}
    </Drawer>
  );
}

const when = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

const ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Changed',
  price_changed: 'Price changed',
  published: 'Published',
  unpublished: 'Unpublished',
  deleted: 'Deleted',
  files_uploaded: 'Files uploaded',
};

function DetailBody({ data, currency, ticketId }: { data: ListingDetail; currency: string; ticketId: number }) {
  if (data.kind === 'logs') {
    if (data.logs.length === 0) return <p className={muted}>No changes yet.</p>;
    return (
      <ol aria-label="Ticket logs" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0 })}>
        {data.logs.map((log) => (
          <li key={log.log_id} className={css({ borderBottom: '1px solid {colors.border}', pb: '2' })}>
            <div className={css({ fontWeight: 'semibold' })}>
              {ACTION_LABELS[log.action] ?? log.action}
              {log.field ? ` ${log.field}` : ''}
              {log.old_value !== null || log.new_value !== null
                ? `: ${log.old_value ?? '-'} → ${log.new_value ?? '-'}`
                : ''}
            </div>
            <div className={muted}>
              {log.user_name} · {when(log.created_at)}
            </div>
          </li>
        ))}
      </ol>
    );
  }
  if (data.kind === 'history') {
    return (
      <div className={stack}>
        <h3 className={sectionTitle}>Sales</h3>
        {data.sales.length === 0 ? (
          <p className={muted}>No tickets of this listing sold yet.</p>
        ) : (
          <ul aria-label="Sales" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0 })}>
            {data.sales.map((s) => (
              <li key={s.order_id}>
                {s.booking_no}: {s.quantity} × · {money(s.amount, s.currency)} · {s.status} · {when(s.created_at)}
              </li>
            ))}
          </ul>
        )}
        <TicketFiles key={ticketId} ticketId={ticketId} files={data.files} />
      </div>
    );
  }
  return <InsightFigures insights={data.insights} currency={currency} />;
}

export function InsightFigures({
  insights: m,
  currency,
}: {
  insights: Extract<ListingDetail, { kind: 'insights' }>['insights'];
  currency: string;
}) {
  const price = (minor: number | null) => (minor === null ? '-' : money(minor, m.currency ?? currency));
  return (
    <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1 3', fontSize: 'sm' })}>
      <dt className={muted}>Lowest</dt>
      <dd>{price(m.lowest_price)}</dd>
      <dt className={muted}>Median</dt>
      <dd>{price(m.median_price)}</dd>
      <dt className={muted}>Highest</dt>
      <dd>{price(m.highest_price)}</dd>
      <dt className={muted}>Other listings</dt>
      <dd>{m.listings_count}</dd>
      <dt className={muted}>Sold in {m.sold_recently_days} days</dt>
      <dd>{m.sold_recently}</dd>
      {m.your_price ? (
        <>
          <dt className={muted}>Your price</dt>
          <dd>
            {m.your_price.rank === 1 ? 'Cheapest' : `#${m.your_price.rank} cheapest`} of{' '}
            {m.your_price.cheaper_count + m.your_price.dearer_count + 1}
          </dd>
        </>
      ) : null}
      {m.payout ? (
        <>
          <dt className={muted}>You receive</dt>
          <dd>
            {price(m.payout.seller_receives)} for {m.payout.quantity}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** The listing's ticket files, and more uploaded with their progress (pdf, jpg, jpeg, png; 5 MB each). */
function TicketFiles({ ticketId, files: initial }: { ticketId: number; files: ListingFile[] }) {
  const [state, send, actor] = useMachine(ticketFilesMachine, { input: { ticketId, files: initial } });
  useNotify(actor);
  const inputId = useId();
  const { files, progress, message } = state.context;
  const busy = state.hasTag('busy');
  return (
    <section aria-labelledby={`${inputId}-title`} className={stack}>
      <h3 id={`${inputId}-title`} className={sectionTitle}>
        Ticket files
      </h3>
      {files.length === 0 ? (
        <p className={muted}>No files uploaded.</p>
      ) : (
        <ul aria-label="Ticket files" className={css({ listStyle: 'none', p: 0 })}>
          {files.map((f) => (
            <li key={f.file_id}>
              {f.name} <span className={muted}>({formatFileSize(f.size)})</span>
            </li>
          ))}
        </ul>
      )}
      <div className={fieldStack}>
        <FieldLabel htmlFor={inputId}>Upload ticket files (pdf, jpg, jpeg or png, 5 MB each, up to 10)</FieldLabel>
        <input
          id={inputId}
          type="file"
          multiple
          accept={TICKET_FILE_TYPES.map((t) => `.${t}`).join(',')}
          disabled={busy}
          aria-describedby={message ? `${inputId}-error` : undefined}
          onChange={(e) => {
            const chosen = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            send({ type: 'files.chosen', files: chosen });
          }}
        />
      </div>
      {busy ? (
        <progress aria-label="Uploading ticket files" max={100} value={progress ?? 0}>
          {progress ?? 0}%
        </progress>
      ) : null}
      {message ? (
        <p id={`${inputId}-error`} role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {message}
        </p>
      ) : null}
    </section>
  );
}
