/**
 * Seat and price alerts, the rules: what an alert may ask for, and whether a listing fits it. A listing fits when
 * it is of the alert's event and not the buyer's own, of its category and one of its blocks (when it names them,
 * case-insensitive), when one purchase may take exactly the alert's quantity from it (its split rule on what is
 * left: seats that sit together, never a split the seller refused), and when its all-in price a ticket, fees
 * included (allInPrice, the price the buyer pays), is at most the alert's ceiling.
 */
import { HttpError, MESSAGES } from '../../http/errors';
import { allInPrice, type CurrencyCode, convert, MIN_TICKET_PRICE, splitList } from '../purchase/pricing';

/** How long the seats of a match are held for the alert's buyer. */
export const ALERT_HOLD_MINUTES = 5;
export const ALERT_HOLD_MS = ALERT_HOLD_MINUTES * 60_000;
/** How often the alerts are matched: a buyer hears of a match within a minute. */
export const ALERT_SWEEP_MS = 15_000;
/** Live alerts a buyer account may keep. */
export const MAX_ALERTS = 20;
export const TOO_MANY_ALERTS = `You can keep at most ${MAX_ALERTS} seat alerts. Delete one first.`;

/**
 * The least all-in price a ticket can have in `currency`: the least price a listing may ask (MIN_TICKET_PRICE,
 * in GBP) with the fees of an e-ticket. A ceiling below it can never be met.
 */
export const leastAllIn = (currency: CurrencyCode) =>
  allInPrice({ currency, unitPrice: convert(MIN_TICKET_PRICE, 'GBP', currency), quantity: 1, ticketTypeId: 1 });

export interface AlertWish {
  quantity: number;
  category: string | null;
  blocks: string[];
  maxPrice: number;
  currency: CurrencyCode;
}

/** Refuses a ceiling no listing can meet, with the least one that can. */
export function checkWish(wish: AlertWish) {
  const least = leastAllIn(wish.currency);
  if (wish.maxPrice < least) {
    throw new HttpError(422, MESSAGES.validation, [
      {
        path: '/body/max_price',
        message: `is below any possible price: the least a ticket costs all-in is ${(least / 100).toFixed(2)} ${wish.currency}`,
      },
    ]);
  }
}

/** The blocks an alert names, as stored: trimmed, comma-free, without empties or repeats (case-insensitive). */
export function blockList(blocks: readonly string[]): string[] {
  const kept = new Map<string, string>();
  for (const raw of blocks) {
    const b = raw.trim().replace(/,/g, ' ');
    if (b.length > 0 && !kept.has(b.toLowerCase())) kept.set(b.toLowerCase(), b);
  }
  return [...kept.values()];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export interface AlertRow {
  buyer_id: number;
  event_id: number;
  quantity: number;
  category: string | null;
  blocks: string | null;
  max_price: number;
  currency: string;
}

export interface CandidateListing {
  id: number;
  seller_id: number;
  event_id: number;
  category: string;
  ticket_block: string;
  available: number;
  split_type: string;
  price: number;
  currency: string;
  ticket_type_id: number;
}

/** The all-in price a ticket of `l` for the alert's quantity, in the alert's currency. */
export const unitAllIn = (alert: AlertRow, l: CandidateListing) => {
  const currency = alert.currency as CurrencyCode;
  const total = allInPrice({
    currency,
    unitPrice: convert(l.price, l.currency as CurrencyCode, currency),
    quantity: alert.quantity,
    ticketTypeId: l.ticket_type_id,
  });
  return Math.ceil(total / alert.quantity);
};

/** Whether `l` is what the alert asks for, whatever is left of it (its category, blocks and price). */
export function wanted(alert: AlertRow, l: CandidateListing): boolean {
  if (l.event_id !== alert.event_id || l.seller_id === alert.buyer_id) return false;
  if (alert.category !== null && !same(alert.category, l.category)) return false;
  if (alert.blocks !== null && !alert.blocks.split(',').some((b) => same(b, l.ticket_block))) return false;
  return unitAllIn(alert, l) <= alert.max_price;
}

/** Whether one purchase may take exactly the alert's quantity when `available` are left. */
export const splitFits = (
  alert: Pick<AlertRow, 'quantity'>,
  l: Pick<CandidateListing, 'split_type'>,
  available: number,
) => splitList(l.split_type, available).includes(alert.quantity);
