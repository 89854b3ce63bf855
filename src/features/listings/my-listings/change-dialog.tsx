import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import type { PriceAsk } from '../../../../machines/inventory.machine';
import { newPriceProblem, PRICE_BOUNDS } from '../../../../machines/listings-api';
import { FormFooter } from '../../../ui/form-footer';
import { Modal } from '../../../ui/modal';
import { choice, stack } from '../listing-styles';
import { EditDialog } from './edit-dialog';
import { useInventory, useList } from './inventory-context';
import { minorOf } from './price-cell';

type Mode = 'set' | 'amount' | 'percent';
const MODES: Array<{ mode: Mode; label: string }> = [
  { mode: 'set', label: 'Set a price' },
  { mode: 'amount', label: 'Change by an amount' },
  { mode: 'percent', label: 'Change by a percentage' },
];

/** What the new price asks, from the mode and the text typed; or a problem in words. */
function askOf(mode: Mode, text: string, currency: string): { ask: PriceAsk | null; problem: string | null } {
  if (text.trim() === '') return { ask: null, problem: null };
  if (mode === 'percent') {
    const value = Number(text.replace(',', '.'));
    if (!/^[-+]?\d+(\.\d{1,2})?$/.test(text.trim()) || value === 0 || value < -90 || value > 500)
      return { ask: null, problem: 'Enter a percentage from -90 to 500, not 0 (e.g. -5 or 12.5).' };
    return { ask: { change_percent: value }, problem: null };
  }
  const negative = mode === 'amount' && text.trim().startsWith('-');
  const minor = minorOf(text.trim().replace(/^[-+]/, ''));
  if (minor === null || minor === 0) return { ask: null, problem: `Enter an amount in ${currency}, e.g. 5.00.` };
  if (mode === 'amount') return { ask: { change_amount: negative ? -minor : minor }, problem: null };
  return { ask: { price: minor }, problem: newPriceProblem(minor) };
}

const many = (n: number) => `${n.toLocaleString('en-GB')} listing${n === 1 ? '' : 's'}`;

/** The dialogs of a change: a new price for the selection, an edit, a deletion to confirm, a refused status. */
export function ChangeDialog() {
  const inventory = useInventory();
  const change = useSelector(inventory, (s) => s.context.change);
  const open = useSelector(inventory, (s) => s.matches({ change: 'confirming' }) || s.matches({ change: 'refused' }));
  const sending = useSelector(inventory, (s) => s.hasTag('changing'));
  const error = useSelector(inventory, (s) => s.context.changeError);
  const list = useList();
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const total = useSelector(list, (s) => s?.context.total ?? 0);
  const [mode, setMode] = useState<Mode>('set');
  const [text, setText] = useState('');
  useEffect(() => {
    if (!open) {
      setText('');
      setMode('set');
    }
  }, [open]);
  if (!change || (!open && !sending) || change.kind === 'status') {
    return error && change?.kind === 'status' ? (
      <Modal open onClose={() => inventory.send({ type: 'change.cancelled' })} title="Status not changed">
        <p role="alert">{error}</p>
      </Modal>
    ) : null;
  }
  const cancel = () => inventory.send({ type: 'change.cancelled' });
  const all = 'filter' in change && !!change.filter;
  const count = all ? total : change.ids.length;
  const listing = items.find((l) => l.id === change.ids[0]);
  const refusal = error ? (
    <p role="alert" className={css({ color: 'error', mt: '3' })}>
      {error}
    </p>
  ) : null;
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
        title={count === 1 ? 'Delete listing' : `Delete ${many(count)}`}
        footer={
          <FormFooter
            valid={!sending}
            submitting={sending}
            submitLabel={count === 1 ? 'Delete' : `Delete ${many(count)}`}
            onCancel={cancel}
            onSubmit={() => inventory.send({ type: 'change.confirmed' })}
          />
        }
      >
        <p>
          {count === 1
            ? 'This listing'
            : `${all ? 'All ' : 'These '}${many(count)}${all ? ' that match the filters' : ''}`}{' '}
          will come off sale and leave your inventory; their sales stay in the history. This cannot be undone. If
          tickets of any of them were sold, nothing is deleted.
        </p>
        {refusal}
      </Modal>
    );
  // one new price is an amount of one currency: listings priced in several take a percentage (the server says so too)
  const chosen = all ? items : items.filter((l) => change.ids.includes(l.id));
  const currencies = [...new Set(chosen.map((l) => l.currency))].sort();
  const currency = currencies[0] ?? 'GBP';
  const mixed = currencies.length > 1;
  const { ask, problem } = askOf(mixed && mode !== 'percent' ? 'percent' : mode, text, currency);
  const effective = mixed && mode !== 'percent' ? 'percent' : mode;
  const what =
    ask === null
      ? null
      : 'price' in ask
        ? `Sets the price of ${many(count)} to ${text.trim()} ${currency} a ticket.`
        : 'change_amount' in ask
          ? `${ask.change_amount > 0 ? 'Raises' : 'Lowers'} the price of each of ${many(count)} by ${(Math.abs(ask.change_amount) / 100).toFixed(2)} ${currency}.`
          : `${ask.change_percent > 0 ? 'Raises' : 'Lowers'} the price of each of ${many(count)} by ${Math.abs(ask.change_percent)}%, rounded to the penny.`;
  return (
    <Modal
      open
      onClose={cancel}
      title={count > 1 ? `New price for ${many(count)}` : 'New price'}
      footer={
        <FormFooter
          valid={ask !== null && !problem && !sending}
          submitting={sending}
          submitLabel="Update price"
          onCancel={cancel}
          onSubmit={() => ask && inventory.send({ type: 'change.confirmed', price: ask })}
        />
      }
    >
      <div className={stack}>
        <fieldset className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', border: 'none', p: 0, m: 0 })}>
          <legend className={css({ srOnly: true })}>How to change the price</legend>
          {MODES.map((m) => (
            <label key={m.mode} className={choice}>
              <input
                type="radio"
                name="price-mode"
                value={m.mode}
                disabled={mixed && m.mode !== 'percent'}
                checked={effective === m.mode}
                onChange={() => setMode(m.mode)}
              />
              {m.label}
            </label>
          ))}
        </fieldset>
        {mixed ? (
          <p role="status">
            These listings are priced in {currencies.join(', ')}: a new price is an amount in one currency, so they
            change by a percentage.
          </p>
        ) : null}
        <label className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
          {effective === 'set'
            ? `Price per ticket (${currency})`
            : effective === 'amount'
              ? `Amount to add (${currency}; negative lowers)`
              : 'Percentage (negative lowers)'}
          <input
            inputMode="decimal"
            value={text}
            aria-invalid={problem ? true : undefined}
            aria-describedby="price-hint"
            onChange={(e) => setText(e.currentTarget.value)}
            className={css({ height: '36px', px: '2', border: '1px solid {colors.border}', borderRadius: 'md' })}
          />
        </label>
        <p id="price-hint" className={css({ fontSize: 'sm', color: problem ? 'error' : 'fg.muted' })}>
          {problem ?? what ?? PRICE_BOUNDS.text} {problem ? '' : 'You can undo it after.'}
        </p>
        {refusal}
      </div>
    </Modal>
  );
}
