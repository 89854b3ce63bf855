/**
 * The reference's three calls, each the least a correct purchase step must write: conditional updates for the
 * stock, the hold and the wallet, the rows a purchase leaves (cart, booking, order, a balanced ledger entry),
 * answers built from the values in hand. The idempotency row and the transaction are the store's.
 */
import type { Row, Runner } from './sql';
import { type Answer, answer, failure, Refusal } from './store';

const HOLD_MS = 15 * 60_000;
export const HELD_MESSAGE = 'Tickets held for 15 minutes.';
export const CONFIRMED_MESSAGE = 'Booking Confirmed Successfully';
export const HOLD_EXPIRED_MESSAGE = 'Your hold on these tickets has expired. Please start again.';
const NO_LONGER_AVAILABLE = 'These tickets are no longer available.';

/** The contract's fee schedule for e-tickets: 10% service fee, 20% VAT on it, the payment method's fee. */
const PAYMENT_FEE_BPS: Record<number, number> = { 1: 0, 2: 0, 3: 0 };
const percent = (amount: number, bps: number) => Math.floor((amount * bps + 5_000) / 10_000);
function breakdown(currency: string, unitPrice: number, quantity: number, method: number) {
  const sub_total = unitPrice * quantity;
  const service_fee = percent(sub_total, 1_000);
  const tax = percent(service_fee, 2_000);
  const grand_total = sub_total + service_fee + tax;
  const payment_fee = percent(grand_total, PAYMENT_FEE_BPS[method] ?? 0);
  return {
    currency,
    ticket_quantity: quantity,
    ticket_price: unitPrice,
    sub_total,
    service_fee,
    shipping_fee: 0,
    tax,
    payment_method: method,
    payment_fee,
    total_with_payment_fee: grand_total + payment_fee,
    grand_total,
  };
}

const secondsLeft = (expiresAt: string, now: Date) =>
  Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
const bookingNo = (id: number) => `BK${String(id).padStart(8, '0')}`;
const refuse = (status: number, message: string): never => {
  throw new Refusal(failure(status, message));
};

export interface CartInput {
  listingId: number;
  matchId: number;
  quantity: number;
  currency: string;
  method: number;
}

/** add-to-cart: takes the tickets from the listing by one conditional update, then writes the cart. */
export async function addToCart(run: Runner, buyerId: number, input: CartInput, now: Date): Promise<Answer> {
  const q = input.quantity;
  const listing = await run.one(
    `UPDATE listings SET available = available - ?
     WHERE id = ? AND event_id = ? AND seller_id <> ? AND currency = ? AND available >= ?
     RETURNING seller_id, price, event_name, event_date`,
    [q, input.listingId, input.matchId, buyerId, input.currency, q],
  );
  if (!listing) {
    const l = await run.one('SELECT event_id, seller_id, currency, available FROM listings WHERE id = ?', [
      input.listingId,
    ]);
    if (!l || Number(l.event_id) !== input.matchId || Number(l.seller_id) === buyerId) {
      return refuse(404, 'No tickets found.');
    }
    if (l.currency !== input.currency)
      return refuse(422, `The reference sells in the listing's currency (${l.currency}).`);
    return refuse(409, Number(l.available) > 0 ? `Sorry, only ${l.available} tickets are left.` : NO_LONGER_AVAILABLE);
  }
  const unitPrice = Number(listing.price);
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + HOLD_MS).toISOString();
  const cart = (await run.one(
    `INSERT INTO carts (buyer_id, seller_id, listing_id, event_id, event_name, event_date, quantity, unit_price,
       currency, payment_method, state, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'held', ?, ?) RETURNING id`,
    [
      buyerId,
      listing.seller_id,
      input.listingId,
      input.matchId,
      listing.event_name,
      listing.event_date,
      q,
      unitPrice,
      input.currency,
      input.method,
      expiresAt,
      at,
    ],
  )) as Row;
  return answer(200, {
    success: true,
    data: {
      cart_id: Number(cart.id),
      status: 'held',
      message: HELD_MESSAGE,
      sell_ticket_id: input.listingId,
      match_id: input.matchId,
      quantity: q,
      currency: input.currency,
      payment_method: input.method,
      expires_at: expiresAt,
      hold_seconds_left: secondsLeft(expiresAt, now),
      price_breakdown: breakdown(input.currency, unitPrice, q, input.method),
    },
  });
}

/** A booking as the answers show it: the essentials of the contract's Booking, from the values in hand. */
function bookingOf(b: Row, now: Date) {
  const id = Number(b.id);
  return {
    booking_id: id,
    booking_no: bookingNo(id),
    cart_id: Number(b.cart_id),
    status: String(b.status),
    status_reason: null,
    match_id: Number(b.event_id),
    sell_ticket_id: Number(b.listing_id),
    match_name: String(b.event_name),
    match_date: String(b.event_date),
    quantity: Number(b.quantity),
    currency: String(b.currency),
    payment_method: Number(b.payment_method),
    price_breakdown: breakdown(String(b.currency), Number(b.unit_price), Number(b.quantity), Number(b.payment_method)),
    billing_address: JSON.parse(String(b.billing)) as unknown,
    guest_data: { list: [] },
    attendees: [],
    guest_details_complete: 1,
    expires_at: String(b.expires_at),
    hold_seconds_left: b.status === 'pending' ? secondsLeft(String(b.expires_at), now) : 0,
    payment: null,
    created_at: String(b.created_at),
    confirmed_at: (b.confirmed_at as string | null) ?? null,
  };
}

export interface BookingInput {
  listingId: number;
  cartId: number;
  method: number;
  billing: Record<string, unknown>;
}

/** inventory/buy: the cart's hold becomes the booking's (one conditional update), then the booking row. */
export async function createBooking(run: Runner, buyerId: number, input: BookingInput, now: Date): Promise<Answer> {
  const at = now.toISOString();
  const cart = await run.one(
    `UPDATE carts SET state = 'booked', payment_method = ?
     WHERE id = ? AND buyer_id = ? AND listing_id = ? AND state = 'held' AND expires_at > ?
     RETURNING seller_id, event_id, event_name, event_date, quantity, unit_price, currency, expires_at`,
    [input.method, input.cartId, buyerId, input.listingId, at],
  );
  if (!cart) {
    const c = await run.one('SELECT listing_id, state FROM carts WHERE id = ? AND buyer_id = ?', [
      input.cartId,
      buyerId,
    ]);
    if (!c) return refuse(404, 'Cart not found.');
    if (Number(c.listing_id) !== input.listingId) return refuse(422, 'The sell ticket is not the cart’s.');
    return refuse(409, c.state === 'booked' ? 'This cart is booked already.' : HOLD_EXPIRED_MESSAGE);
  }
  const total = breakdown(
    String(cart.currency),
    Number(cart.unit_price),
    Number(cart.quantity),
    input.method,
  ).total_with_payment_fee;
  const billing = JSON.stringify(input.billing);
  const row = (await run.one(
    `INSERT INTO bookings (cart_id, buyer_id, seller_id, listing_id, event_id, event_name, event_date, quantity,
       unit_price, total, currency, payment_method, status, billing, expires_at, created_at, confirmed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, NULL) RETURNING id`,
    [
      input.cartId,
      buyerId,
      cart.seller_id,
      input.listingId,
      cart.event_id,
      cart.event_name,
      cart.event_date,
      cart.quantity,
      cart.unit_price,
      total,
      cart.currency,
      input.method,
      billing,
      cart.expires_at,
      at,
    ],
  )) as Row;
  const booking = {
    ...cart,
    id: row.id,
    cart_id: input.cartId,
    listing_id: input.listingId,
    payment_method: input.method,
    status: 'pending',
    billing,
    created_at: at,
    confirmed_at: null,
  };
  return answer(200, { success: true, data: bookingOf(booking, now) });
}

const paymentResult = (id: number, ok: boolean, message: string, reason: string | null) => ({
  status: ok ? 1 : 0,
  booking_status: ok ? 'Success' : 'Failed',
  message,
  reason,
  refunded: false,
  booking_id: id,
  booking_no: bookingNo(id),
});

const BOOKING_COLUMNS = `id, cart_id, seller_id, listing_id, event_id, event_name, event_date, quantity, unit_price,
  total, currency, payment_method, status, billing, expires_at, created_at, confirmed_at`;

/**
 * confirmation (SB Pay): claims the booking while its hold lasts (one conditional update), debits the wallet
 * (`balance >= amount`), posts the balanced entry (wallet minus, escrow plus: the escrow's line is appended,
 * its balance is the sum of its lines) and records the seller's order.
 */
export async function confirmBooking(
  run: Runner,
  buyerId: number,
  bookingId: number,
  escrow: ReadonlyMap<string, number>,
  now: Date,
): Promise<Answer> {
  const at = now.toISOString();
  const b = await run.one(
    `UPDATE bookings SET status = 'confirmed', confirmed_at = ?
     WHERE id = ? AND buyer_id = ? AND status = 'pending' AND expires_at > ? RETURNING ${BOOKING_COLUMNS}`,
    [at, bookingId, buyerId, at],
  );
  if (!b) {
    const current = await run.one(`SELECT ${BOOKING_COLUMNS} FROM bookings WHERE id = ? AND buyer_id = ?`, [
      bookingId,
      buyerId,
    ]);
    if (!current) return refuse(404, 'Booking not found.');
    const ok = current.status === 'confirmed';
    const result = ok
      ? paymentResult(bookingId, true, CONFIRMED_MESSAGE, null)
      : paymentResult(bookingId, false, HOLD_EXPIRED_MESSAGE, 'hold_expired');
    return answer(200, { success: true, data: { result, booking: bookingOf(current, now) } });
  }
  const amount = Number(b.total);
  const currency = String(b.currency);
  const wallet = await run.one(
    `UPDATE accounts SET balance = balance - ?
     WHERE owner_id = ? AND kind = 'wallet' AND currency = ? AND balance >= ? RETURNING id, balance`,
    [amount, buyerId, currency, amount],
  );
  if (!wallet) {
    const result = paymentResult(bookingId, false, 'Insufficient SB Pay balance.', 'insufficient_funds');
    throw new Refusal(
      answer(200, {
        success: true,
        data: { result, booking: bookingOf({ ...b, status: 'pending', confirmed_at: null }, now) },
      }),
    );
  }
  const entry = (await run.one(
    "INSERT INTO ledger_entries (kind, reference, created_at) VALUES ('purchase', ?, ?) RETURNING id",
    [`booking:${bookingId}`, at],
  )) as Row;
  await run.one(
    'INSERT INTO ledger_lines (entry_id, account_id, amount, balance_after) VALUES (?, ?, ?, ?), (?, ?, ?, NULL)',
    [entry.id, wallet.id, -amount, wallet.balance, entry.id, escrow.get(currency), amount],
  );
  await run.one(
    `INSERT INTO orders (booking_id, seller_id, listing_id, quantity, amount, currency, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)`,
    [bookingId, b.seller_id, b.listing_id, b.quantity, Number(b.unit_price) * Number(b.quantity), currency, at],
  );
  return answer(200, {
    success: true,
    data: { result: paymentResult(bookingId, true, CONFIRMED_MESSAGE, null), booking: bookingOf(b, now) },
  });
}
