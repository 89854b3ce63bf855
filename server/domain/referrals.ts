import { randomInt } from 'node:crypto';
import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';
import { type CurrencyCode, percentOf, SERVICE_FEE_BPS } from './purchase/pricing';

type ReferralEarning = components['schemas']['ReferralEarning'];
type ReferredPerson = components['schemas']['ReferredPerson'];
type ReferralBooking = components['schemas']['ReferralBooking'];

/**
 * The referral programme (issue 13), as the big marketplaces run theirs (a share of the platform's own fee, for a
 * limited time): the referrer earns REFERRAL_SHARE_BPS of the service fee of every booking a referred person
 * confirms within REFERRAL_MONTHS months of signing up with the code. A booking whose sale was cancelled earns
 * nothing. Nothing is stored: each answer is worked out from the bookings as they are now, rounded half up per
 * booking, in the booking's currency.
 */
export const REFERRAL_SHARE_BPS = 2000;
export const REFERRAL_MONTHS = 12;
export const REFERRAL_PAGE_SIZE = 10;

/** Referral codes: 8 of these 32 characters (no I, O, 0 or 1, which read alike). */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE = /^[A-HJ-NP-Z2-9]{8}$/;

export const newReferralCode = () => Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(32)]).join('');

/** The end of a referral's earning window: its start plus the programme's months (calendar months, UTC). */
export function earningUntil(joinedAt: string): string {
  const end = new Date(joinedAt);
  end.setUTCMonth(end.getUTCMonth() + REFERRAL_MONTHS);
  return end.toISOString();
}

/** The seller's referral code, made (once, whoever asks first) when it has none. */
export async function referralCodeOf(db: Db, sellerId: number, now: Date): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const known = await db
      .selectFrom('referral_codes')
      .select('code')
      .where('user_id', '=', sellerId)
      .executeTakeFirst();
    if (known) return known.code;
    // a code another seller drew already, or this seller's made at the same moment: the next loop finds out
    await db
      .insertInto('referral_codes')
      .values({ user_id: sellerId, code: newReferralCode(), created_at: now.toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  throw new Error('no free referral code after 5 tries');
}

/**
 * A sign-up with a referral code: the code's owner becomes the new account's referrer. An unknown code, or a
 * person already referred, records nothing (the sign-up answers the same either way).
 */
export async function recordReferral(db: Db, code: string | undefined, referredId: number, now: Date) {
  if (!code || !REFERRAL_CODE.test(code)) return;
  const owner = await db.selectFrom('referral_codes').select('user_id').where('code', '=', code).executeTakeFirst();
  if (!owner || owner.user_id === referredId) return;
  await db
    .insertInto('referrals')
    .values({ referrer_id: owner.user_id, referred_id: referredId, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('referred_id').doNothing())
    .execute();
}

/** First name and last initial: what a referrer sees of the people it referred. */
export const shortName = (first: string, last: string) =>
  [first.trim(), last.trim() ? `${last.trim()[0]?.toUpperCase()}.` : ''].filter(Boolean).join(' ');

/** What the rule reads of a booking. */
interface EarningInput {
  confirmed_at: string | null;
  unit_price: number;
  quantity: number;
  /** its sale's status (null before there is one) */
  order_status: string | null;
  /** when its buyer signed up with the code */
  referred_at: string;
}

/** What one booking earns its referrer under the rule, with its sub total and service fee. */
export function bookingEarning(b: EarningInput) {
  const subTotal = b.unit_price * b.quantity;
  const serviceFee = percentOf(subTotal, SERVICE_FEE_BPS);
  const earning =
    b.confirmed_at !== null &&
    b.confirmed_at >= b.referred_at &&
    b.confirmed_at < earningUntil(b.referred_at) &&
    b.order_status !== 'cancelled';
  return { subTotal, serviceFee, earned: earning ? percentOf(serviceFee, REFERRAL_SHARE_BPS) : 0, earning };
}

/** The confirmed bookings of the seller's referred people since they signed up (optionally only some people). */
function referredBookings(db: Db, referrerId: number) {
  return db
    .selectFrom('referrals')
    .innerJoin('bookings', 'bookings.buyer_id', 'referrals.referred_id')
    .leftJoin('orders', 'orders.id', 'bookings.order_id')
    .where('referrals.referrer_id', '=', referrerId)
    .where('bookings.status', '=', 'confirmed')
    .where('bookings.confirmed_at', 'is not', null)
    .whereRef('bookings.confirmed_at', '>=', 'referrals.created_at');
}

const sumByCurrency = (rows: ReadonlyArray<{ currency: string; earned: number }>): ReferralEarning[] => {
  const sums = new Map<string, number>();
  for (const r of rows) if (r.earned > 0) sums.set(r.currency, (sums.get(r.currency) ?? 0) + r.earned);
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency: currency as CurrencyCode, amount }));
};

const pageMeta = (page: number, total: number) => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / REFERRAL_PAGE_SIZE)),
  per_page: REFERRAL_PAGE_SIZE,
  total,
});

/** The seller's code, totals and one page of the people it referred (newest first). */
export async function referralHistory(db: Db, sellerId: number, page: number, now: Date) {
  const code = await referralCodeOf(db, sellerId, now);
  const all = (
    await referredBookings(db, sellerId)
      .select([
        'bookings.id',
        'bookings.buyer_id',
        'bookings.confirmed_at',
        'bookings.currency',
        'bookings.unit_price',
        'bookings.quantity',
        'orders.status as order_status',
        'referrals.created_at as referred_at',
      ])
      .execute()
  ).map((b) => ({ ...b, ...bookingEarning(b) }));
  const counted = await db
    .selectFrom('referrals')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('referrer_id', '=', sellerId)
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const people = await db
    .selectFrom('referrals')
    .innerJoin('users', 'users.id', 'referrals.referred_id')
    .select(['referrals.id', 'referrals.referred_id', 'referrals.created_at', 'users.first_name', 'users.last_name'])
    .where('referrals.referrer_id', '=', sellerId)
    .orderBy('referrals.created_at', 'desc')
    .orderBy('referrals.id', 'desc')
    .limit(REFERRAL_PAGE_SIZE)
    .offset((page - 1) * REFERRAL_PAGE_SIZE)
    .execute();
  const referrals: ReferredPerson[] = people.map((p) => {
    const theirs = all.filter((b) => b.buyer_id === p.referred_id);
    return {
      id: p.id,
      name: shortName(p.first_name, p.last_name),
      joined_at: p.created_at,
      earning_until: earningUntil(p.created_at),
      bookings_count: theirs.length,
      earned: sumByCurrency(theirs),
    };
  });
  return {
    referral_code: code,
    signup_path: `/signup?ref=${code}`,
    program: { share_bps: REFERRAL_SHARE_BPS, service_fee_bps: SERVICE_FEE_BPS, months: REFERRAL_MONTHS },
    earned: sumByCurrency(all),
    referrals,
    meta: pageMeta(page, total),
  };
}

/** One page of the referred people's confirmed bookings, newest first, with what each earned. */
export async function referralBookings(db: Db, sellerId: number, page: number) {
  const counted = await referredBookings(db, sellerId)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const rows = await referredBookings(db, sellerId)
    .innerJoin('users', 'users.id', 'bookings.buyer_id')
    .innerJoin('events', 'events.id', 'bookings.event_id')
    .select([
      'bookings.id',
      'bookings.confirmed_at',
      'bookings.currency',
      'bookings.unit_price',
      'bookings.quantity',
      'orders.status as order_status',
      'referrals.created_at as referred_at',
      'users.first_name',
      'users.last_name',
      'events.name as event_name',
    ])
    .orderBy('bookings.confirmed_at', 'desc')
    .orderBy('bookings.id', 'desc')
    .limit(REFERRAL_PAGE_SIZE)
    .offset((page - 1) * REFERRAL_PAGE_SIZE)
    .execute();
  const bookings: ReferralBooking[] = rows.map((r) => {
    const e = bookingEarning(r);
    return {
      id: r.id,
      confirmed_at: r.confirmed_at as string,
      referred_name: shortName(r.first_name, r.last_name),
      event_name: r.event_name,
      currency: r.currency as CurrencyCode,
      sub_total: e.subTotal,
      service_fee: e.serviceFee,
      earned: e.earned,
      earning: e.earning,
    };
  });
  return { bookings, meta: pageMeta(page, total) };
}
