import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { HttpError, MESSAGES } from '../../http/errors';
import { duplicates, PAST_CHANGE } from './checks';
import { writeLogs } from './logs';
import { capProblems, capsOfEvents, checkCaps, refuseOverCap } from './price-caps';
import { type Actor, type ListingRow, ownedRows } from './rows';
import { type CurrencyCode, MAX_PRICE, MIN_PRICE, PRICE_RANGE, todayOf } from './rules';

const invalid = (errors: FieldError[]) => new HttpError(422, MESSAGES.validation, errors);
const iso = (d: Date) => d.toISOString();

/** Why one new price cannot go to listings priced in several currencies. */
export const mixedCurrencies = (currencies: readonly string[]) =>
  `These listings are priced in ${currencies.join(', ')}: a new price is an amount in one currency. Choose listings of one currency to price them together.`;

/**
 * Sets a price, or changes each by an amount or a percentage, on the seller's listings of `ids` (all or nothing).
 */
export async function updatePrices(
  db: Db,
  actor: Actor,
  ask: { ticket_ids: number[]; price?: number; change_percent?: number; change_amount?: number },
  now: Date,
) {
  const errors = duplicates(ask.ticket_ids, '/body/ticket_ids');
  const given = [ask.price, ask.change_percent, ask.change_amount].filter((v) => v !== undefined).length;
  if (given !== 1) {
    errors.push({ path: '/body/price', message: 'give exactly one of price, change_percent and change_amount' });
  }
  if (ask.change_amount === 0) errors.push({ path: '/body/change_amount', message: 'must not be 0' });
  if (ask.change_percent !== undefined && Math.round(ask.change_percent * 100) / 100 !== ask.change_percent) {
    errors.push({ path: '/body/change_percent', message: 'must have at most two decimals' });
  }
  if (errors.length > 0) throw invalid(errors);
  const rows = await ownedRows(db, actor.sellerId, ask.ticket_ids);
  const today = todayOf(now);
  if (rows.some((r) => r.event_date < today)) throw new HttpError(409, PAST_CHANGE);
  // one price is an amount of one currency: given to listings priced in several, it would set $50 where the
  // seller read £50 (a change by percent fits any mix)
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  if ((ask.price !== undefined || ask.change_amount !== undefined) && currencies.length > 1) {
    const message = mixedCurrencies(currencies);
    throw new HttpError(422, message, [
      { path: ask.price === undefined ? '/body/change_amount' : '/body/price', message },
    ]);
  }
  // basis points of a percent with two decimals: an exact integer
  const bps = ask.change_percent === undefined ? 0 : Math.round(ask.change_percent * 100);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const priced = ask.ticket_ids.map((id) => {
    const r = byId.get(id) as ListingRow;
    return {
      row: r,
      price:
        ask.price ??
        (ask.change_amount !== undefined
          ? r.price + ask.change_amount
          : Math.floor((r.price * (10_000 + bps) + 5_000) / 10_000)),
    };
  });
  const path =
    ask.price !== undefined
      ? '/body/price'
      : ask.change_amount !== undefined
        ? '/body/change_amount'
        : '/body/change_percent';
  return applyPrices(db, actor, priced, path, now);
}

/**
 * Checks new prices by the rules of a price per ticket and the resale caps of each listing's match, and sets them
 * (all or nothing), each logged under one change id: every price change of Inventory (one listing, a selection,
 * an undo) comes through here.
 */
export async function applyPrices(
  db: Db,
  actor: Actor,
  priced: { row: ListingRow; price: number }[],
  path: string,
  now: Date,
) {
  const out = priced.filter((p) => p.price < MIN_PRICE || p.price > MAX_PRICE);
  if (out.length > 0) {
    const ids = out.map((p) => p.row.id);
    const named = ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
    throw invalid([
      {
        path,
        message: `would put the price of listing ${named} outside the bounds of a price per ticket, ${PRICE_RANGE}`,
      },
    ]);
  }
  // the resale caps of each listing's match, against its own face value and currency
  const caps = await capsOfEvents(
    db,
    priced.map((p) => p.row.event_id),
  );
  refuseOverCap(
    priced.flatMap((p) =>
      capProblems(checkCaps(caps.get(p.row.event_id) ?? [], { ...p.row, price: p.price }), () => path).map((e) => ({
        ...e,
        message: `listing ${p.row.id}: ${e.message}`,
      })),
    ),
  );
  const changed = priced.filter((p) => p.price !== p.row.price);
  const changeId = changed.length > 0 ? randomUUID() : null;
  const at = iso(now);
  for (const p of changed) {
    await db.updateTable('listings').set({ price: p.price, updated_at: at }).where('id', '=', p.row.id).execute();
  }
  await writeLogs(
    db,
    actor,
    changed.map((p) => ({
      listing_id: p.row.id,
      action: 'price_changed' as const,
      field: 'price',
      old_value: String(p.row.price),
      new_value: String(p.price),
    })),
    now,
    changeId,
  );
  return {
    updated: changed.length,
    change_id: changeId,
    tickets: priced.map((p) => ({
      ticket_id: p.row.id,
      previous_price: p.row.price,
      price: p.price,
      currency: p.row.currency as CurrencyCode,
    })),
  };
}
