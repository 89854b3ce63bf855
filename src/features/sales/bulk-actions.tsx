import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { SalesOrderRow } from '../../../machines/sales.machine';
import { salesBulkMachine } from '../../../machines/sales-bulk.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { OrderTable } from './order-table';
import { muted } from './sales-parts';

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

/** What accepting or declining the ticked orders does, said before it is done. */
export const bulkConsequence = (action: 'accept' | 'decline', n: number) =>
  action === 'accept'
    ? `${n === 1 ? 'It is' : 'Each is'} confirmed and moves to Awaiting Delivery: its tickets are then due by its delivery deadline. An order that can no longer be accepted is left as it is and says why.`
    : `${n === 1 ? 'Its buyer is' : 'Each buyer is'} refunded in full and the tickets go back on sale. This cannot be undone. An order that can no longer be declined is left as it is and says why.`;

/**
 * The pending orders with a box to tick each, and what to do with the ticked ones: accept or decline them all
 * (a decline with a reason), after a confirmation that says what will happen; then each order's result, which
 * stays while the list reloads without the orders that changed (`shown` is false while it has none to show).
 */
export function BulkOrders({ items, shown }: { items: readonly SalesOrderRow[]; shown: boolean }) {
  const bulk = useViewActor(salesBulkMachine, 'sales-bulk', undefined, { systemId: 'salesBulk' });
  const all = useSelector(bulk, (s) => s?.context.selected ?? []);
  const confirming = useSelector(bulk, (s) => s?.matches('confirming') || s?.matches('sending') || false);
  const sending = useSelector(bulk, (s) => s?.hasTag('busy') ?? false);
  const action = useSelector(bulk, (s) => s?.context.action ?? 'accept');
  const reason = useSelector(bulk, (s) => s?.context.reason ?? '');
  const error = useSelector(bulk, (s) => s?.context.error ?? null);
  const results = useSelector(bulk, (s) => (s?.matches('done') ? s.context.results : null));
  const canConfirm = useSelector(bulk, (s) => s?.can({ type: 'bulk.confirmed' }) ?? false);
  // what is ticked on this page (the list reloads after a change; what left it is not counted)
  const selected = all.filter((id) => items.some((o) => o.booking_id === id));
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    bulk?.send({ type: 'bulk.confirmed' });
  };
  return (
    <>
      {shown ? (
        <div
          role="toolbar"
          aria-label="Selected orders"
          className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })}
        >
          <span className={muted} aria-live="polite">
            {selected.length === 0
              ? 'Tick orders to accept or decline several at once.'
              : `${orders(selected.length)} selected`}
          </span>
          <Button
            disabled={selected.length === 0}
            title={selected.length === 0 ? 'Tick the orders to accept first' : undefined}
            onClick={() => bulk?.send({ type: 'bulk.requested', action: 'accept', ids: selected })}
          >
            Accept selected
          </Button>
          <Button
            tone="secondary"
            disabled={selected.length === 0}
            title={selected.length === 0 ? 'Tick the orders to decline first' : undefined}
            onClick={() => bulk?.send({ type: 'bulk.requested', action: 'decline', ids: selected })}
          >
            Decline selected
          </Button>
        </div>
      ) : null}
      {results ? (
        <section
          role="status"
          aria-label="Results"
          className={css({
            border: '1px solid {colors.border}',
            borderRadius: 'md',
            p: '3',
            display: 'grid',
            gap: '2',
          })}
        >
          <p className={css({ fontWeight: 'semibold' })}>{results.message}</p>
          <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '1', fontSize: 'sm' })}>
            {results.results.map((r) => (
              <li key={r.booking_id} data-ok={r.ok} className={css({ color: r.ok ? 'success' : 'danger' })}>
                {r.ok ? 'Done' : 'Not changed'}: {r.booking_no}: {r.message}
              </li>
            ))}
          </ul>
          <div>
            <Button tone="secondary" onClick={() => bulk?.send({ type: 'results.dismissed' })}>
              Dismiss
            </Button>
          </div>
        </section>
      ) : null}
      {shown ? (
        <div className={css({ overflowX: 'auto' })}>
          <OrderTable
            items={items}
            open
            selection={{
              selected,
              onToggle: (id) => bulk?.send({ type: 'selection.toggled', id }),
              onToggleAll: (ids) => bulk?.send({ type: 'selection.allToggled', ids }),
            }}
          />
        </div>
      ) : null}
      <Modal
        open={confirming}
        title={`${action === 'accept' ? 'Accept' : 'Decline'} ${orders(selected.length)}?`}
        onClose={() => bulk?.send({ type: 'bulk.cancelled' })}
      >
        <form aria-label="Confirm" onSubmit={confirm} className={css({ display: 'grid', gap: '3' })}>
          <p>{bulkConsequence(action, selected.length)}</p>
          <ul className={css({ fontSize: 'sm', pl: '4' })}>
            {items
              .filter((o) => selected.includes(o.booking_id))
              .map((o) => (
                <li key={o.booking_id}>
                  {o.booking_no} · {o.match_name} · {o.quantity} × {o.category}
                </li>
              ))}
          </ul>
          {action === 'decline' ? (
            <TextField
              label="Reason for declining"
              required
              value={reason}
              onChange={(e) => bulk?.send({ type: 'reason.changed', reason: e.currentTarget.value })}
            />
          ) : null}
          {error ? (
            <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
              {error}
            </p>
          ) : null}
          <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
            <Button tone="secondary" onClick={() => bulk?.send({ type: 'bulk.cancelled' })} disabled={sending}>
              Cancel
            </Button>
            <Button
              type="submit"
              busy={sending}
              disabled={!canConfirm && !sending}
              whyDisabled={action === 'decline' ? 'Give a reason to decline first.' : null}
            >
              {action === 'accept' ? `Accept ${orders(selected.length)}` : `Decline ${orders(selected.length)}`}
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}
