import type { Clock } from '../../clock';
import { guestFieldsOf } from '../../domain/purchase/catalog';
import type { CurrencyCode } from '../../domain/purchase/pricing';
import { confirmWithWallet, createBooking, createCart } from '../../domain/purchase/purchase';
import { decideDeposit, submitDeposit } from '../../domain/wallet';
import type { Db } from '../database';
import { prng } from './demo-sales';

/**
 * The trade area's demo data (issue 9), made by a seeded PRNG from the clock passed to `seed`:
 *
 * - 48 more matches beside the 12 of the sales demo (60 in all), from 2 to 120 days ahead, in several
 *   competitions; the Champions League ones require guest details of each ticket's guest;
 * - about 1,000 listings with tickets left, from four sellers (tickets4u and fanzone, and the seller and the rival
 *   themselves, each of which sees only the others'), in GBP mostly and some EUR, USD and AED, with every split
 *   rule and ticket type;
 * - for the seller and the rival, the accounts that can trade: an SB Pay balance in every currency (approved
 *   deposits, through the ledger), a primary billing address, three stored sandbox cards (one pays, one is
 *   declined, one lacks funds), and a few confirmed purchases of their own (made through the purchase flow
 *   itself, so the ledger, the sellers' sales and notifications agree).
 *
 * Everything goes in with few statements (listings in batches) to keep the first start quick.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;
type Rng = () => number;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface League {
  tournament: string;
  country: string;
  clubs: readonly (readonly [team: string, stadium: string, city: string])[];
}

/** Clubs with their home stadium and city (cities of the seeded geography). */
const LEAGUES: readonly League[] = [
  {
    tournament: 'Premier League',
    country: 'EN',
    clubs: [
      ['Arsenal', 'Emirates Stadium', 'London'],
      ['Chelsea', 'Stamford Bridge', 'London'],
      ['Liverpool', 'Anfield', 'Liverpool'],
      ['Manchester City', 'Etihad Stadium', 'Manchester'],
      ['Manchester United', 'Old Trafford', 'Manchester'],
      ['Tottenham Hotspur', 'Tottenham Hotspur Stadium', 'London'],
      ['Newcastle United', "St James' Park", 'Newcastle upon Tyne'],
      ['Aston Villa', 'Villa Park', 'Birmingham'],
    ],
  },
  {
    tournament: 'La Liga',
    country: 'ES',
    clubs: [
      ['Real Madrid', 'Santiago Bernabéu', 'Madrid'],
      ['Barcelona', 'Spotify Camp Nou', 'Barcelona'],
      ['Atlético Madrid', 'Riyadh Air Metropolitano', 'Madrid'],
      ['Sevilla', 'Ramón Sánchez-Pizjuán', 'Seville'],
    ],
  },
  {
    tournament: 'Bundesliga',
    country: 'DE',
    clubs: [
      ['Bayern Munich', 'Allianz Arena', 'Munich'],
      ['Borussia Dortmund', 'Signal Iduna Park', 'Dortmund'],
      ['Bayer Leverkusen', 'BayArena', 'Leverkusen'],
    ],
  },
  {
    tournament: 'Serie A',
    country: 'IT',
    clubs: [
      ['AC Milan', 'San Siro', 'Milan'],
      ['Inter', 'San Siro', 'Milan'],
      ['Juventus', 'Allianz Stadium', 'Turin'],
      ['Roma', 'Stadio Olimpico', 'Rome'],
    ],
  },
  {
    tournament: 'Ligue 1',
    country: 'FR',
    clubs: [
      ['Paris Saint-Germain', 'Parc des Princes', 'Paris'],
      ['Marseille', 'Orange Vélodrome', 'Marseille'],
      ['Lyon', 'Groupama Stadium', 'Lyon'],
    ],
  },
];

/** Champions League ties: the home club's league and stadium, an away club from another league. */
export const CHAMPIONS_LEAGUE = 'Champions League';
export const CHAMPIONS_LEAGUE_GUEST_FIELDS = 'first_name,last_name,date_of_birth,gender,contact_email';

const KICK_OFFS = ['12:30', '15:00', '17:30', '19:45', '20:00', '21:00'] as const;
const CATEGORIES = [
  'Longside Lower Tier',
  'Longside Upper Tier',
  'Shortside Lower Tier',
  'Shortside Upper Tier',
  'Away Section',
  'VIP Hospitality',
] as const;
const SPLITS = [
  ...Array(12).fill('any'),
  ...Array(4).fill('pairs'),
  ...Array(3).fill('avoid_single'),
  'all_together',
] as readonly string[];
const LISTING_CURRENCIES = [...Array(14).fill('GBP'), 'EUR', 'EUR', 'EUR', 'USD', 'USD', 'AED'] as const;

export const TRADE_SELLERS = ['tickets4u@demo.test', 'fanzone@demo.test'] as const;

/** The trading accounts' top-ups: approved deposits, so the ledger holds the balance. */
const TOP_UPS: readonly { amount: number; currency: CurrencyCode }[] = [
  { amount: 500_000, currency: 'GBP' },
  { amount: 300_000, currency: 'EUR' },
  { amount: 300_000, currency: 'USD' },
  { amount: 1_000_000, currency: 'AED' },
];

/** Stored sandbox cards: the reference ends with the test card's last four digits (server/payments/sandbox). */
export const DEMO_STORED_CARDS = [
  { brand: 'visa', variant: 'visa', last4: '4242', reference: 'sandbox_visa_4242' },
  { brand: 'mastercard', variant: 'mc', last4: '0002', reference: 'sandbox_mc_0002' },
  { brand: 'visa', variant: 'visa', last4: '9995', reference: 'sandbox_visa_9995' },
] as const;

export interface TradeAccounts {
  seller: number;
  rival: number;
  admin: number;
  traders: readonly number[];
}

async function cityOf(db: Db, country: string, city: string) {
  const row = await db
    .selectFrom('cities')
    .innerJoin('countries', 'countries.id', 'cities.country_id')
    .select(['cities.id as city_id', 'countries.id as country_id'])
    .where('countries.short_name', '=', country)
    .where('cities.name', '=', city)
    .executeTakeFirst();
  if (row) return row;
  // a city the geography lacks is added to its country
  const c = await db.selectFrom('countries').select('id').where('short_name', '=', country).executeTakeFirstOrThrow();
  const made = await db
    .insertInto('cities')
    .values({ country_id: c.id, name: city })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { city_id: made.id, country_id: c.id };
}

export async function seedDemoTrade(db: Db, clock: Clock, accounts: TradeAccounts): Promise<void> {
  const rng = prng(90210);
  const now = clock.now();
  const nowMs = now.getTime();

  // 48 matches: 36 league fixtures and 12 Champions League ties
  const fixtures: { home: string; away: string; stadium: string; city: string; country: string; tournament: string }[] =
    [];
  for (let i = 0; fixtures.length < 36; i++) {
    const league = LEAGUES[i % LEAGUES.length] as League;
    const home = pick(rng, league.clubs);
    let away = pick(rng, league.clubs);
    while (away[0] === home[0]) away = pick(rng, league.clubs);
    fixtures.push({
      home: home[0],
      away: away[0],
      stadium: home[1],
      city: home[2],
      country: league.country,
      tournament: league.tournament,
    });
  }
  for (let i = 0; i < 12; i++) {
    const league = LEAGUES[i % LEAGUES.length] as League;
    const other = LEAGUES[(i + 1 + int(rng, 0, LEAGUES.length - 2)) % LEAGUES.length] as League;
    const home = pick(rng, league.clubs);
    const away = pick(rng, other.clubs);
    fixtures.push({
      home: home[0],
      away: away[0],
      stadium: home[1],
      city: home[2],
      country: league.country,
      tournament: CHAMPIONS_LEAGUE,
    });
  }
  const eventRows = [];
  for (const [i, f] of fixtures.entries()) {
    const where = await cityOf(db, f.country, f.city);
    eventRows.push({
      name: `${f.home} vs ${f.away}`,
      home_team: f.home,
      away_team: f.away,
      tournament: f.tournament,
      event_date: isoDate(nowMs + (2 + Math.floor((i * 118) / fixtures.length) + int(rng, 0, 2)) * DAY_MS),
      event_time: pick(rng, KICK_OFFS),
      stadium_name: f.stadium,
      city_id: where.city_id,
      country_id: where.country_id,
      guest_fields: f.tournament === CHAMPIONS_LEAGUE ? CHAMPIONS_LEAGUE_GUEST_FIELDS : '',
    });
  }
  await db.insertInto('events').values(eventRows).execute();
  const events = await db
    .selectFrom('events')
    .select(['id', 'guest_fields'])
    .where('event_date', '>=', isoDate(nowMs))
    .orderBy('id')
    .execute();

  // about 1,000 listings: most from the two trade sellers, a hundred or so from each trading account
  const sellers = [
    ...accounts.traders.flatMap((id) => Array(8).fill(id) as number[]),
    ...Array(2).fill(accounts.seller),
    ...Array(2).fill(accounts.rival),
  ];
  const listings = [];
  for (let i = 0; i < 1000; i++) {
    const event = events[i % events.length] as (typeof events)[number];
    const currency = pick(rng, LISTING_CURRENCIES);
    const quantity = int(rng, 1, 12);
    const split = pick(rng, SPLITS);
    const base = int(rng, 8, 80) * 500;
    listings.push({
      seller_id: pick(rng, sellers),
      event_id: event.id,
      category: pick(rng, CATEGORIES),
      ticket_block: `Block ${int(rng, 1, 130)}`,
      row: String(int(rng, 1, 30)),
      ticket_type_id: int(rng, 1, 6),
      quantity,
      available: quantity,
      split_type: split === 'pairs' && quantity % 2 === 1 ? 'any' : split,
      price: currency === 'AED' ? base * 4 : currency === 'GBP' ? base : Math.round((base * 6) / 5),
      currency,
      created_at: new Date(nowMs - int(rng, 1, 30) * DAY_MS).toISOString(),
    });
  }
  for (let i = 0; i < listings.length; i += 200)
    await db
      .insertInto('listings')
      .values(listings.slice(i, i + 200))
      .execute();

  // the trading accounts: balance, billing address, stored cards
  const london = await cityOf(db, 'EN', 'London');
  const manchester = await cityOf(db, 'EN', 'Manchester');
  for (const [buyer, who, where] of [
    [
      accounts.seller,
      { first: 'Sam', last: 'Seller', email: 'seller@demo.test', street: '221B Baker Street', zip: 'NW1 6XE' },
      london,
    ],
    [
      accounts.rival,
      { first: 'Rory', last: 'Rival', email: 'rival@demo.test', street: '1 Deansgate', zip: 'M3 1AZ' },
      manchester,
    ],
  ] as const) {
    for (const [i, t] of TOP_UPS.entries()) {
      const at = new Date(nowMs - (30 - i) * DAY_MS);
      const deposit = await submitDeposit(
        db,
        {
          sellerId: buyer,
          submittedBy: buyer,
          amount: t.amount,
          currency: t.currency,
          method: 'ONLINE',
          notes: 'Trade float',
          proofFileId: null,
        },
        at,
      );
      await decideDeposit(
        db,
        deposit.deposit_id,
        accounts.admin,
        { kind: 'approve' },
        new Date(at.getTime() + 2 * 60 * MINUTE_MS),
      );
    }
    await db
      .insertInto('addresses')
      .values({
        owner_id: buyer,
        first_name: who.first,
        last_name: who.last,
        email: who.email,
        country_code: '+44',
        mobile_number: '7700900123',
        country_id: where.country_id,
        city_id: where.city_id,
        address: who.street,
        zip_code: who.zip,
        address_type: 'billing',
        primary_address: 1,
        created_at: now.toISOString(),
      })
      .execute();
    await db
      .insertInto('stored_cards')
      .values(
        DEMO_STORED_CARDS.map((c) => ({
          owner_id: buyer,
          gateway: 'sandbox',
          brand: c.brand,
          variant: c.variant,
          last4: c.last4,
          exp_month: 12,
          exp_year: now.getUTCFullYear() + 3,
          holder_name: `${who.first} ${who.last}`,
          recurring_reference: c.reference,
          created_at: now.toISOString(),
        })),
      )
      .execute();
  }

  // a purchase history for each trading account, through the flow itself (8 confirmed purchases, hours apart)
  const noGuests = new Set(events.filter((e) => guestFieldsOf(e.guest_fields).length === 0).map((e) => e.id));
  for (const [n, buyer] of [accounts.seller, accounts.rival].entries()) {
    const address = await db
      .selectFrom('addresses')
      .select('id')
      .where('owner_id', '=', buyer)
      .executeTakeFirstOrThrow();
    const candidates = await db
      .selectFrom('listings')
      .select(['id', 'event_id', 'available', 'split_type'])
      .where('seller_id', 'in', accounts.traders)
      .where('split_type', '=', 'any')
      .where('available', '>=', 2)
      .orderBy('id')
      .limit(200)
      .execute();
    const usable = candidates.filter((l) => noGuests.has(l.event_id));
    for (let i = 0; i < 8; i++) {
      const listing = usable[(i * 7 + n * 3) % usable.length] as (typeof usable)[number];
      const at = new Date(nowMs - (8 - i) * 6 * 60 * MINUTE_MS - n * 17 * MINUTE_MS);
      const cart = await createCart(
        db,
        {
          buyerId: buyer,
          userId: buyer,
          listingId: listing.id,
          matchId: listing.event_id,
          quantity: 1 + (i % 2),
          currency: 'GBP',
          method: 1,
        },
        at,
      );
      const booking = await createBooking(
        db,
        {
          buyerId: buyer,
          userId: buyer,
          listingId: listing.id,
          cartId: cart.cart_id,
          method: 1,
          billing: { address_id: address.id },
        },
        at,
      );
      await confirmWithWallet(db, buyer, booking.booking_id, new Date(at.getTime() + 2 * MINUTE_MS));
    }
  }
}
