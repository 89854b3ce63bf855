import type { Clock } from '../../clock';
import { type CurrencyCode, recordOrder } from '../../domain/sales/totals';
import type { Db } from '../database';
import type { OrderStatus } from '../schema';

/**
 * The demo seller's events, listings, orders, notifications and activity, made by a seeded PRNG from the clock
 * passed to `seed`: the same clock gives the same rows. Dates are relative to it (events ahead, history behind).
 * Nothing here is made for newseller or rejected, so their dashboards show empty states. Orders are written by
 * recordOrder (server/domain/sales.ts), which keeps the sellers' totals that the dashboard reads.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/** mulberry32: small, fast, and the same sequence on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => {
  const item = list[Math.floor(rng() * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};
function shuffle<T>(rng: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}
const iso = (ms: number) => new Date(ms).toISOString();
const isoDate = (ms: number) => iso(ms).slice(0, 10);

const SYMBOL: Record<string, string> = { GBP: '£', EUR: '€', USD: '$', AED: 'AED ' };
/** '£1,240.50' from 124050 minor units, without floating point. */
export function formatMoney(minor: number, currency: string): string {
  const whole = Math.floor(minor / 100).toLocaleString('en-GB');
  return `${SYMBOL[currency] ?? `${currency} `}${whole}.${String(minor % 100).padStart(2, '0')}`;
}

interface EventSeed {
  home: string;
  away: string;
  tournament: string;
  stadium: string;
  country: string;
  city: string;
}

/** Football fixtures in cities of the seeded geography (country short_name, city name). */
export const DEMO_EVENTS: readonly EventSeed[] = [
  {
    home: 'Arsenal',
    away: 'Chelsea',
    tournament: 'Premier League',
    stadium: 'Emirates Stadium',
    country: 'EN',
    city: 'London',
  },
  {
    home: 'Manchester United',
    away: 'Liverpool',
    tournament: 'Premier League',
    stadium: 'Old Trafford',
    country: 'EN',
    city: 'Manchester',
  },
  {
    home: 'Tottenham Hotspur',
    away: 'Arsenal',
    tournament: 'Premier League',
    stadium: 'Tottenham Hotspur Stadium',
    country: 'EN',
    city: 'London',
  },
  {
    home: 'Liverpool',
    away: 'Manchester City',
    tournament: 'Premier League',
    stadium: 'Anfield',
    country: 'EN',
    city: 'Liverpool',
  },
  {
    home: 'Newcastle United',
    away: 'Aston Villa',
    tournament: 'Premier League',
    stadium: "St James' Park",
    country: 'EN',
    city: 'Newcastle upon Tyne',
  },
  {
    home: 'Celtic',
    away: 'Rangers',
    tournament: 'Scottish Premiership',
    stadium: 'Celtic Park',
    country: 'SC',
    city: 'Glasgow',
  },
  {
    home: 'Real Madrid',
    away: 'Barcelona',
    tournament: 'La Liga',
    stadium: 'Santiago Bernabéu',
    country: 'ES',
    city: 'Madrid',
  },
  {
    home: 'Atlético Madrid',
    away: 'Sevilla',
    tournament: 'La Liga',
    stadium: 'Riyadh Air Metropolitano',
    country: 'ES',
    city: 'Madrid',
  },
  {
    home: 'Bayern Munich',
    away: 'Borussia Dortmund',
    tournament: 'Bundesliga',
    stadium: 'Allianz Arena',
    country: 'DE',
    city: 'Munich',
  },
  { home: 'AC Milan', away: 'Inter', tournament: 'Serie A', stadium: 'San Siro', country: 'IT', city: 'Milan' },
  {
    home: 'Paris Saint-Germain',
    away: 'Marseille',
    tournament: 'Ligue 1',
    stadium: 'Parc des Princes',
    country: 'FR',
    city: 'Paris',
  },
  {
    home: 'Benfica',
    away: 'Porto',
    tournament: 'Primeira Liga',
    stadium: 'Estádio da Luz',
    country: 'PT',
    city: 'Lisbon',
  },
];

const KICK_OFFS = ['12:30', '15:00', '17:30', '19:45', '20:00', '21:00'] as const;
const CATEGORIES = [
  'Longside Lower Tier',
  'Longside Upper Tier',
  'Shortside Lower Tier',
  'Shortside Upper Tier',
  'Away Section',
  'VIP Hospitality',
] as const;

/** Orders by status; the non-GBP ones are listed apart. 40 in all, every status several times. */
const ORDER_MIX: Record<OrderStatus, number> = {
  pending: 6,
  confirmed: 13,
  delivered: 5,
  completed: 7,
  cancelled: 4,
  replaced: 5,
};
const NON_GBP_ORDERS: readonly [OrderStatus, string][] = [
  ['confirmed', 'EUR'],
  ['completed', 'EUR'],
  ['delivered', 'EUR'],
  ['cancelled', 'EUR'],
  ['pending', 'USD'],
  ['completed', 'USD'],
  ['confirmed', 'AED'],
  ['replaced', 'AED'],
];

interface SeededOrder {
  booking_no: string;
  event: string;
  quantity: number;
  amount: number;
  currency: string;
  category: string;
}

/** Events, the seller's listings and orders. Answers the orders, which the notifications then talk about. */
export async function seedDemoSales(db: Db, clock: Clock, sellerId: number): Promise<SeededOrder[]> {
  const rng = prng(20261122);
  const now = clock.now().getTime();

  const eventIds: { id: number; name: string }[] = [];
  for (const [i, e] of DEMO_EVENTS.entries()) {
    const city = await db
      .selectFrom('cities')
      .innerJoin('countries', 'countries.id', 'cities.country_id')
      .select(['cities.id as city_id', 'countries.id as country_id'])
      .where('countries.short_name', '=', e.country)
      .where('cities.name', '=', e.city)
      .executeTakeFirst();
    if (!city) throw new Error(`seed: no city ${e.city} in ${e.country}`);
    const name = `${e.home} vs ${e.away}`;
    const { id } = await db
      .insertInto('events')
      .values({
        name,
        home_team: e.home,
        away_team: e.away,
        tournament: e.tournament,
        // one fixture every few days, from 3 days ahead to about two months ahead
        event_date: isoDate(now + (3 + i * 5 + int(rng, 0, 3)) * DAY_MS),
        event_time: pick(rng, KICK_OFFS),
        stadium_name: e.stadium,
        city_id: city.city_id,
        country_id: city.country_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    eventIds.push({ id, name });
  }

  // two GBP listings per event, and a few priced in EUR, USD and AED
  const listingPlan: { event: number; currency: string }[] = [
    ...eventIds.flatMap((_, i) => [
      { event: i, currency: 'GBP' },
      { event: i, currency: 'GBP' },
    ]),
    { event: 6, currency: 'EUR' },
    { event: 8, currency: 'EUR' },
    { event: 10, currency: 'EUR' },
    { event: 0, currency: 'USD' },
    { event: 1, currency: 'AED' },
  ];
  const listings: {
    id: number;
    event: { id: number; name: string };
    price: number;
    currency: string;
    category: string;
  }[] = [];
  for (const plan of listingPlan) {
    const event = eventIds[plan.event];
    if (!event) throw new Error('seed: listing of a missing event');
    const category = pick(rng, CATEGORIES);
    // whole units of 5 in the currency, 65 to 450 of them, kept as minor units
    const price = int(rng, 13, 90) * 500 * (plan.currency === 'AED' ? 4 : 1);
    const { id } = await db
      .insertInto('listings')
      .values({
        seller_id: sellerId,
        event_id: event.id,
        category,
        ticket_block: `Block ${int(rng, 1, 130)}`,
        row: String(int(rng, 1, 30)),
        ticket_type_id: int(rng, 1, 6),
        quantity: int(rng, 4, 20),
        price,
        currency: plan.currency,
        created_at: iso(now - int(rng, 61, 75) * DAY_MS),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    listings.push({ id, event, price, currency: plan.currency, category });
  }

  const nonGbp = [...NON_GBP_ORDERS];
  const plan: { status: OrderStatus; currency: string }[] = [];
  for (const [status, count] of Object.entries(ORDER_MIX) as [OrderStatus, number][]) {
    const others = nonGbp.filter(([s]) => s === status).map(([, currency]) => currency);
    for (let i = 0; i < count; i++) plan.push({ status, currency: others[i] ?? 'GBP' });
  }
  const timed = shuffle(rng, plan)
    .map((p) => ({ ...p, created: now - int(rng, 2 * 60, 60 * 24 * 60) * MINUTE_MS }))
    .sort((a, b) => a.created - b.created);

  const orders: SeededOrder[] = [];
  for (const [i, o] of timed.entries()) {
    const listing = pick(
      rng,
      listings.filter((l) => l.currency === o.currency),
    );
    const quantity = int(rng, 1, 4);
    const booking_no = `SB-${100001 + i}`;
    const updated =
      o.status === 'pending' ? o.created : Math.min(now - MINUTE_MS, o.created + int(rng, 1, 72) * 3600_000);
    await recordOrder(db, {
      booking_no,
      listing_id: listing.id,
      seller_id: sellerId,
      event_id: listing.event.id,
      quantity,
      amount: listing.price * quantity,
      currency: o.currency as CurrencyCode,
      status: o.status,
      created_at: iso(o.created),
      updated_at: iso(updated),
    });
    orders.push({
      booking_no,
      event: listing.event.name,
      quantity,
      amount: listing.price * quantity,
      currency: o.currency,
      category: listing.category,
    });
  }
  return orders;
}

/** Times spread over the last `days` days, newest first, each at least an hour before now. */
function pastTimes(rng: Rng, now: number, count: number, days: number): number[] {
  return Array.from({ length: count }, () => now - int(rng, 60, days * 24 * 60) * MINUTE_MS).sort((a, b) => b - a);
}

/** Notifications (about a third unread, the newest ones) and a matching activity log for one user. */
export async function seedDemoNotifications(
  db: Db,
  clock: Clock,
  userId: number,
  orders: readonly SeededOrder[],
  counts: { notifications: number; activity: number; seed: number },
): Promise<void> {
  const rng = prng(counts.seed);
  const now = clock.now().getTime();
  const order = () => pick(rng, orders);

  const notifications = pastTimes(rng, now, counts.notifications, 60).map((t, i) => {
    const kind = pick(rng, ['new_order', 'new_order', 'ticket_delivered', 'payout_processed', 'order_cancelled']);
    const o = order();
    const description =
      kind === 'new_order'
        ? `New order ${o.booking_no}: ${o.quantity} × ${o.event} (${o.category}).`
        : kind === 'ticket_delivered'
          ? `The tickets of ${o.booking_no} (${o.event}) were delivered to the buyer.`
          : kind === 'payout_processed'
            ? `A payout of ${formatMoney(int(rng, 200, 4000) * 100, 'GBP')} was sent to your bank account.`
            : `Order ${o.booking_no} (${o.event}) was cancelled by the buyer.`;
    // the newest quarter is unread, plus a few older ones never opened: about a third in all
    const unread = i < Math.ceil(counts.notifications / 4) || i % 11 === 5;
    return { user_id: userId, name: kind, description, viewed: unread ? 0 : 1, created_at: iso(t) };
  });
  await db.insertInto('notifications').values(notifications).execute();

  // sessions of logged_in, 0 to 2 things done (or more in the last one), logged_out: exactly the count wanted
  const sizes: number[] = [];
  for (let left = counts.activity; left > 0; ) {
    const size = Math.min(2 + int(rng, 0, 2), left);
    if (size < 2 && sizes.length > 0) sizes[sizes.length - 1] = (sizes.at(-1) ?? 0) + size;
    else sizes.push(size);
    left -= size;
  }
  const rows: { user_id: number; type: string; description: string; created_at: string }[] = [];
  const starts = pastTimes(rng, now, sizes.length, 60).reverse();
  for (const [s, start] of starts.entries()) {
    let t = start;
    const at = (type: string, description: string) => {
      t += int(rng, 2, 25) * MINUTE_MS;
      rows.push({ user_id: userId, type, description, created_at: iso(Math.min(t, now - MINUTE_MS)) });
    };
    at('logged_in', 'Logged in');
    for (let k = (sizes[s] ?? 2) - 2; k > 0; k--) {
      const o = order();
      const kind = pick(rng, ['listing_created', 'price_updated', 'ticket_delivered', 'payout_requested']);
      if (kind === 'listing_created') at(kind, `Listed ${o.quantity + 2} tickets for ${o.event} (${o.category}).`);
      else if (kind === 'price_updated')
        at(kind, `Changed a ticket price for ${o.event} to ${formatMoney(o.amount / o.quantity, o.currency)}.`);
      else if (kind === 'ticket_delivered') at(kind, `Delivered the tickets of ${o.booking_no} (${o.event}).`);
      else at(kind, `Requested a payout of ${formatMoney(int(rng, 200, 4000) * 100, 'GBP')}.`);
    }
    at('logged_out', 'Logged out');
  }
  await db.insertInto('activity_log').values(rows).execute();
}

/**
 * A second seller's few listings and orders on the demo events (which seedDemoSales made): so that every call
 * that takes an id can be tried with another seller's token (the isolation tests), and so that the trade area
 * has tickets of someone else to offer. Booking numbers start at SB-200001.
 */
export async function seedRivalSales(db: Db, clock: Clock, sellerId: number): Promise<SeededOrder[]> {
  const rng = prng(7);
  const now = clock.now().getTime();
  const events = await db.selectFrom('events').select(['id', 'name']).orderBy('id').limit(4).execute();
  if (events.length === 0) throw new Error('seed: the rival seller needs the demo events first');
  const orders: SeededOrder[] = [];
  const statuses: OrderStatus[] = ['pending', 'confirmed', 'confirmed', 'delivered', 'completed', 'cancelled'];
  for (const [i, event] of events.entries()) {
    const category = pick(rng, CATEGORIES);
    const price = int(rng, 20, 80) * 500;
    const { id } = await db
      .insertInto('listings')
      .values({
        seller_id: sellerId,
        event_id: event.id,
        category,
        ticket_block: `Block ${int(rng, 1, 130)}`,
        row: String(int(rng, 1, 30)),
        ticket_type_id: int(rng, 1, 6),
        quantity: int(rng, 4, 12),
        price,
        currency: 'GBP',
        created_at: iso(now - int(rng, 30, 60) * DAY_MS),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const status = statuses[i % statuses.length] ?? 'pending';
    const quantity = int(rng, 1, 3);
    const created = now - int(rng, 60, 60 * 24 * 20) * MINUTE_MS;
    const booking_no = `SB-${200001 + i}`;
    await recordOrder(db, {
      booking_no,
      listing_id: id,
      seller_id: sellerId,
      event_id: event.id,
      quantity,
      amount: price * quantity,
      currency: 'GBP',
      status,
      created_at: iso(created),
    });
    orders.push({ booking_no, event: event.name, quantity, amount: price * quantity, currency: 'GBP', category });
  }
  return orders;
}
