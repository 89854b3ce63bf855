import { useState } from 'react';
import { css } from 'styled-system/css';
import type { Listing } from '../../../../machines/inventory.machine';
import { newPriceProblem } from '../../../../machines/listings-api';
import { money } from '../listing-format';
import { useInventory } from './inventory-context';

/** '125', '125.5', '1,250.00' -> minor units; null when it is not an amount. */
export function minorOf(text: string): number | null {
  const clean = text.replace(/[,\s£$€]/g, '');
  if (!/^\d+(\.\d{0,2})?$/.test(clean)) return null;
  const [whole = '0', part = ''] = clean.split('.');
  return Number(whole) * 100 + Number(part.padEnd(2, '0'));
}

/**
 * The price of one listing, edited where it stands: Enter (or a click) opens it, Enter saves, Escape puts it back.
 * While typing, what the seller receives for the tickets still to sell shows under it (the fees are the buyer's).
 */
export function PriceCell({ listing: l, label }: { listing: Listing; label: string }) {
  const inventory = useInventory();
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null)
    return (
      <button
        type="button"
        data-col="price"
        className={priceButton}
        onClick={() => setDraft((l.price / 100).toFixed(2))}
        aria-label={`Price of ${label}: ${money(l.price, l.currency)}. Edit`}
      >
        {money(l.price, l.currency)}
      </button>
    );
  const minor = minorOf(draft);
  const problem = minor === null ? 'Enter an amount, e.g. 125.00.' : newPriceProblem(minor);
  const unsold = Math.max(0, l.quantity - l.sold);
  const close = () => setDraft(null);
  return (
    <span className={css({ position: 'relative', display: 'block' })}>
      <input
        // biome-ignore lint/a11y/noAutofocus: the seller asked to edit this price; the caret goes there
        autoFocus
        data-col="price"
        inputMode="decimal"
        aria-label={`New price of ${label} (${l.currency})`}
        aria-describedby={`payout-${l.id}`}
        aria-invalid={problem ? true : undefined}
        value={draft}
        className={priceInput}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onFocus={(e) => e.currentTarget.select()}
        onBlur={close}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
          if (e.key === 'Enter') {
            e.preventDefault();
            if (problem || minor === null) return;
            if (minor !== l.price) inventory.send({ type: 'price.saved', id: l.id, price: minor });
            close();
          }
        }}
      />
      <span id={`payout-${l.id}`} role="status" className={payout}>
        {problem ??
          `You receive ${money((minor ?? 0) * unsold, l.currency)} for ${unsold} ticket${unsold === 1 ? '' : 's'}`}
      </span>
    </span>
  );
}

const priceButton = css({
  width: '100%',
  minHeight: '24px',
  textAlign: 'right',
  fontVariantNumeric: 'tabular-nums',
  bg: 'transparent',
  border: '1px dashed transparent',
  borderRadius: 'sm',
  px: '1',
  cursor: 'text',
  _hover: { borderColor: 'border' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focus' },
});
const priceInput = css({
  width: '100%',
  height: '24px',
  textAlign: 'right',
  px: '1',
  border: '1px solid {colors.accent}',
  borderRadius: 'sm',
  bg: 'bg',
  fontVariantNumeric: 'tabular-nums',
});
const payout = css({
  position: 'absolute',
  right: 0,
  top: '100%',
  zIndex: 2,
  mt: '1',
  px: '2',
  py: '1',
  bg: 'fg',
  color: 'bg',
  borderRadius: 'sm',
  fontSize: 'xs',
  whiteSpace: 'nowrap',
});
