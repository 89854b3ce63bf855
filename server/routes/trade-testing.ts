import { hashToken, newToken, newUserToken, TOKEN_LIFETIME_MS } from '../auth/tokens';
import type { Db } from '../db/database';
import { PERMISSIONS } from '../db/seed/index';
import { platformBankAccount, postEntry, walletAccount } from '../domain/ledger';
import { type freshServer, userIdOf } from '../test-support';

/** Helpers the trade tests share: calls with a fresh Idempotency-Key each (unless given), typed loosely. */
export type Server = Awaited<ReturnType<typeof freshServer>>;

let seq = 0;
export const newKey = () => `trade-test-${Date.now().toString(36)}-${++seq}`;

export interface Answer {
  status: number;
  body: {
    success: boolean;
    message?: string;
    data?: Record<string, unknown> & { [k: string]: unknown };
    errors?: { path: string; message: string }[];
  };
  headers: Headers;
}

export async function call(
  s: Server,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  key: string | null = method === 'GET' ? null : newKey(),
): Promise<Answer> {
  const res = await s.json(method, path, body, token, key ? { 'idempotency-key': key } : {});
  return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers };
}

const used = new Set<number>();

/**
 * A listing of another seller with tickets left, on an event without guest details, splitting any way; one no
 * earlier call of this file used (so holds of one test never move another's counts).
 */
export async function openListing(
  s: Server,
  buyerId: number,
  opts: { minAvailable?: number; guests?: boolean; ticketTypes?: number[] } = {},
) {
  let q = s.db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .select(['listings.id', 'listings.event_id', 'listings.available', 'listings.seller_id', 'listings.ticket_type_id'])
    .where('listings.seller_id', '<>', buyerId)
    .where('listings.available', '>=', opts.minAvailable ?? 2)
    .where('listings.split_type', '=', 'any')
    .where('events.guest_fields', opts.guests ? '<>' : '=', '')
    .where('events.event_date', '>=', s.clock.now().toISOString().slice(0, 10));
  if (opts.ticketTypes) q = q.where('listings.ticket_type_id', 'in', opts.ticketTypes);
  if (used.size > 0) q = q.where('listings.id', 'not in', [...used]);
  const listing = await q.orderBy('listings.id').executeTakeFirstOrThrow();
  used.add(listing.id);
  return listing;
}

export const userId = (s: Server, email: string) => userIdOf(s.db, email);

/** cart -> booking (primary address, or a billing address given in full) for `quantity` tickets; answers the booking's data. */
export async function book(
  s: Server,
  token: string,
  listing: { id: number; event_id: number },
  quantity = 1,
  method = 1,
  currency = 'GBP',
) {
  const cart = await call(
    s,
    'POST',
    `/purchase/lmt-trade/add-to-cart?currrency=${currency}&client_country=IN&lang=en&match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=${quantity}&payment_method=${method}`,
    token,
  );
  if (cart.status !== 200) throw new Error(`add-to-cart answered ${cart.status}: ${JSON.stringify(cart.body)}`);
  const addresses = await call(s, 'GET', '/settings/address-book', token);
  const address = (addresses.body.data as unknown as { address_id: number }[])[0];
  const booking = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, token, {
    cart_id: (cart.body.data as { cart_id: number }).cart_id,
    lang: 'en',
    client_country: 'IN',
    payment_method: method,
    // a buyer without a saved address gives the billing fields in full
    ...(address ? { address_id: address.address_id } : await inlineBilling(s.db)),
  });
  if (booking.status !== 200) throw new Error(`booking answered ${booking.status}: ${JSON.stringify(booking.body)}`);
  return booking.body.data as unknown as {
    booking_id: number;
    booking_no: string;
    status: string;
    guest_data: { list: { index: number; required_fields: string[] }[] };
    price_breakdown: { total_with_payment_fee: number; currency: string };
    expires_at: string;
  };
}

/**
 * `n` buyer accounts made in the database directly (no password to hash): each with every permission, a session
 * token and `balance` minor units of GBP in its SB Pay wallet. For the tests with many buyers at once.
 */
export async function makeBuyers(db: Db, n: number, now: Date, balance = 100_000_000) {
  const at = now.toISOString();
  const buyers: { id: number; token: string }[] = [];
  for (let i = 0; i < n; i++) {
    buyers.push(
      await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('users')
          .values({
            email: `buyer-${i}-${newUserToken().slice(0, 8)}@many.test`,
            password_hash: 'none',
            first_name: 'Many',
            last_name: `Buyer ${i}`,
            user_type: 'sellers',
            kyc_status: 1,
            kyc_rejection_reason: null,
            team_owner_id: null,
            currency: 'GBP',
            user_token: newUserToken(),
            created_at: at,
            deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('user_permissions')
          .values(PERMISSIONS.map((p) => ({ user_id: id, permission_name: p.name, is_can_access: 1 })))
          .execute();
        const token = newToken();
        await trx
          .insertInto('auth_tokens')
          .values({
            token_hash: hashToken(token),
            user_id: id,
            created_at: at,
            expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
            revoked_at: null,
          })
          .execute();
        const lines = [
          { accountId: await walletAccount(trx, id, 'GBP', now), currency: 'GBP', amount: balance },
          { accountId: await platformBankAccount(trx, 'GBP', now), currency: 'GBP', amount: -balance },
        ];
        await postEntry(trx, { kind: 'deposit', reference: `many-buyers:${id}`, description: 'Top-up', lines }, now);
        return { id, token };
      }),
    );
  }
  return buyers;
}

/** A listing of `sellerEmail` with `tickets` tickets on an upcoming match without guest details (or `eventId`). */
export async function makeListing(
  db: Db,
  now: Date,
  opts: { sellerEmail?: string; eventId?: number; tickets?: number; price?: number; currency?: string } = {},
) {
  const seller = await userIdOf(db, opts.sellerEmail ?? 'tickets4u@demo.test');
  const eventId =
    opts.eventId ??
    (
      await db
        .selectFrom('events')
        .select('id')
        .where('guest_fields', '=', '')
        .where('event_date', '>=', now.toISOString().slice(0, 10))
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
  const tickets = opts.tickets ?? 100_000;
  return db
    .insertInto('listings')
    .values({
      seller_id: seller,
      event_id: eventId,
      category: 'Longside Lower Tier',
      ticket_block: 'Block 1',
      row: '1',
      ticket_type_id: 1,
      quantity: tickets,
      available: tickets,
      split_type: 'any',
      price: opts.price ?? 5_000,
      currency: opts.currency ?? 'GBP',
      created_at: now.toISOString(),
    })
    .returning(['id', 'event_id'])
    .executeTakeFirstOrThrow();
}

/** The billing fields of a booking given in full (no saved address needed). */
export const inlineBilling = async (db: Db) => ({
  first_name: 'Many',
  last_name: 'Buyer',
  email: 'buyer@many.test',
  address: '1 High Street',
  postal_code: 'AB1 2CD',
  country: (await db.selectFrom('countries').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
});
