import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { amountText, mulDivRound } from '../purchase/pricing';

export type PriceCap = components['schemas']['PriceCap'];
export type PriceCapInput = components['schemas']['PriceCapInput'];
export type PriceCapCheck = components['schemas']['PriceCapCheck'];

/**
 * Resale price caps (docs/decisions/resale-price-caps.md): the operator caps a ticket's price at its face value,
 * or face value plus a percentage, for the market of a country (the events held there) or for one event. A
 * listing over an active cap that applies to its event is refused (create, edit, price change, bulk upload): 422
 * with the cap in words. A cap set later does not touch listings already on sale.
 */

/** A cap as it applies to an event: its market in words and its markup. */
export interface AppliedCap {
  scope: 'country' | 'event';
  market: string;
  markup_bps: number;
}

/** 'face value' or 'face value plus 10%'. */
export const capRule = (markupBps: number) =>
  markupBps === 0 ? 'face value' : `face value plus ${amountText(markupBps).replace(/\.00$/, '')}%`;

/** The most a ticket of face value `faceValue` may ask under a cap (rounded half up to the minor unit). */
export const capLimit = (faceValue: number, markupBps: number) => faceValue + mulDivRound(faceValue, markupBps, 10_000);

/** The active caps that apply to each of `eventIds`: the event's own, and that of the country it is held in. */
export async function capsOfEvents(db: Db, eventIds: readonly number[]): Promise<Map<number, AppliedCap[]>> {
  const caps = new Map<number, AppliedCap[]>();
  const ids = [...new Set(eventIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    const rows = await db
      .selectFrom('events')
      .innerJoin('price_caps', (join) =>
        join.on((eb) =>
          eb.or([
            eb('price_caps.event_id', '=', eb.ref('events.id')),
            eb('price_caps.country_id', '=', eb.ref('events.country_id')),
          ]),
        ),
      )
      .leftJoin('countries', 'countries.id', 'price_caps.country_id')
      .select([
        'events.id as event_id',
        'events.name as event_name',
        'countries.name as country_name',
        'price_caps.event_id as cap_event',
        'price_caps.markup_bps',
      ])
      .where('events.id', 'in', slice)
      .where('price_caps.active', '=', 1)
      .orderBy('price_caps.id')
      .execute();
    for (const r of rows) {
      const list = caps.get(r.event_id) ?? [];
      list.push(
        r.cap_event === null
          ? { scope: 'country', market: r.country_name ?? 'Country', markup_bps: r.markup_bps }
          : { scope: 'event', market: r.event_name, markup_bps: r.markup_bps },
      );
      caps.set(r.event_id, list);
    }
  }
  return caps;
}

/** Each cap checked against a price and face value (in the listing's currency): within it, over it, or unknown. */
export function checkCaps(
  caps: readonly AppliedCap[],
  listing: { price?: number | undefined; face_value?: number | null | undefined; currency: string },
): PriceCapCheck[] {
  return caps.map((c) => {
    const rule = capRule(c.markup_bps);
    const where = c.scope === 'country' ? `in ${c.market}` : `for ${c.market}`;
    if (listing.face_value === null || listing.face_value === undefined) {
      return {
        ...c,
        rule,
        limit: null,
        within: null,
        message: `Resale ${where} is capped at ${rule}: enter the tickets' face value.`,
      };
    }
    const limit = capLimit(listing.face_value, c.markup_bps);
    const most = `${listing.currency} ${amountText(limit)}`;
    const within = listing.price === undefined ? null : listing.price <= limit;
    return {
      ...c,
      rule,
      limit,
      within,
      message:
        within === false
          ? `Over the resale cap ${where}: at most ${most} a ticket (${rule}).`
          : `Within the resale cap ${where}: at most ${most} a ticket (${rule}).`,
    };
  });
}

/** The field errors of a listing over (or, without a face value, under) an active cap; `path` names its fields. */
export function capProblems(checks: readonly PriceCapCheck[], path: (field: string) => string): FieldError[] {
  const errors: FieldError[] = [];
  for (const c of checks) {
    if (c.within === false) errors.push({ path: path('price'), message: c.message });
    else if (c.limit === null) errors.push({ path: path('face_value'), message: c.message });
  }
  return errors;
}

/** The first resale cap's words among field errors (the message of a refusal that has them), or undefined. */
export const capMessageIn = (errors: readonly FieldError[]) =>
  errors.find((e) => e.message.startsWith('Over the resale cap') || / is capped at /.test(e.message))?.message;

/** Refuses (422, the first cap's words as the message) a listing over an active cap; nothing otherwise. */
export function refuseOverCap(errors: readonly FieldError[]) {
  const first = errors[0];
  if (first) throw new HttpError(422, first.message, [...errors]);
}

// ------------------------------------------------------------------------------------------------------------
// The back office

export async function listCaps(db: Db): Promise<PriceCap[]> {
  const rows = await db
    .selectFrom('price_caps')
    .leftJoin('countries', 'countries.id', 'price_caps.country_id')
    .leftJoin('events', 'events.id', 'price_caps.event_id')
    .select([
      'price_caps.id',
      'price_caps.country_id',
      'price_caps.event_id',
      'price_caps.markup_bps',
      'price_caps.active',
      'price_caps.updated_at',
      'countries.name as country_name',
      'events.name as event_name',
    ])
    .orderBy('price_caps.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    scope: r.event_id === null ? 'country' : 'event',
    country_id: r.country_id,
    event_id: r.event_id,
    market: (r.event_id === null ? r.country_name : r.event_name) ?? '',
    markup_bps: r.markup_bps,
    rule: capRule(r.markup_bps),
    active: r.active === 1 ? 1 : 0,
    updated_at: r.updated_at,
  }));
}

/**
 * Sets the cap of a country or of an event (one of them): a new one, or the one it has changed in place by one
 * conditional write (insert, or update on the unique key). 404 for an unknown country or event.
 */
export async function setCap(db: Db, input: PriceCapInput, now: Date): Promise<PriceCap> {
  const byCountry = input.country_id !== undefined && input.country_id !== null;
  const byEvent = input.event_id !== undefined && input.event_id !== null;
  if (byCountry === byEvent) {
    throw new HttpError(422, 'Choose a country or an event for the cap, not both.', [
      { path: '/body/country_id', message: 'give exactly one of country_id and event_id' },
    ]);
  }
  const exists = byCountry
    ? await db
        .selectFrom('countries')
        .select('id')
        .where('id', '=', input.country_id as number)
        .executeTakeFirst()
    : await db
        .selectFrom('events')
        .select('id')
        .where('id', '=', input.event_id as number)
        .executeTakeFirst();
  if (!exists) throw new HttpError(404, byCountry ? 'Country not found.' : 'Event not found.');
  const at = now.toISOString();
  const values = { markup_bps: input.markup_bps, active: input.active ?? 1, updated_at: at };
  const key = byCountry ? ('country_id' as const) : ('event_id' as const);
  const id = byCountry ? (input.country_id as number) : (input.event_id as number);
  await db
    .insertInto('price_caps')
    .values({ country_id: byCountry ? id : null, event_id: byEvent ? id : null, created_at: at, ...values })
    .onConflict((oc) => oc.column(key).doUpdateSet(values))
    .execute();
  const caps = await listCaps(db);
  return caps.find((c) => c[key] === id) as PriceCap;
}
