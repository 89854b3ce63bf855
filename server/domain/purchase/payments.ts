/**
 * Paying a booking and confirming it: the SB Pay wallet (method 1, the purchase's third call), and what every
 * method shares: the claim of the hold, the seller's order, the notifications, the recorded payment.
 */
import type { Db } from '../../db/database';
import { prepared, runFixed } from '../../db/prepared';
import { InsufficientFunds, payFromWallet, walletBalances } from '../ledger';
import { notificationLinks, notify } from '../notifications';
import { transfersOpenOf } from '../sales/deadlines';
import { recordSale } from '../sales/totals';
import { transferStateOf } from '../sales/transfers';
import { lockBooking } from './bookings';
import { expireCart, HOLD_EXPIRED_MESSAGE } from './holds';
import type { CurrencyCode, PaymentMethod } from './pricing';
import {
  type Booking,
  type BookingRow,
  CONFIRMED_MESSAGE,
  chargeOf,
  iso,
  money,
  notPayable,
  type Outcome,
  type PaymentResult,
  requireGuests,
  result,
} from './rules';
import { bookingOrThrow, bookingView, type EventShown, eventShownById } from './views';

export async function outcome(db: Db, b: BookingRow, r: PaymentResult, now: Date): Promise<Outcome> {
  return { result: r, booking: await bookingOrThrow(db, b.buyer_id, b.id, now) };
}

/** The listing's terms the booking's cart held: its seats, its ticket type (the fees), the seller's price. */
const termsById = prepared((db, $: { id: number }) =>
  db
    .selectFrom('carts')
    .select([
      'ticket_type_id',
      'seller_unit_price as price',
      'seller_currency as currency',
      'category',
      'ticket_block',
      'row',
      'seats',
      'in_hand_date',
      'face_value',
      'restrictions',
    ])
    .where('id', '=', $.id),
);
export type Terms = NonNullable<Awaited<ReturnType<typeof termsById.takeFirst>>>;
export async function termsOf(db: Db, cartId: number): Promise<Terms> {
  const terms = await termsById.takeFirst(db, { id: cartId });
  if (!terms) throw new Error(`cart ${cartId} vanished`);
  return terms;
}

const failureNoted = prepared((db, $: { id: number; reason: string; at: string }) =>
  db
    .updateTable('bookings')
    .set({ status_reason: $.reason, updated_at: $.at })
    .where('id', '=', $.id)
    .where('status', '=', 'pending'),
);
export async function noteFailure(db: Db, b: BookingRow, reason: string, now: Date) {
  await failureNoted.execute(db, { id: b.id, reason, at: iso(now) });
}

const claimHold = prepared((db, $: { cart: number; at: string }) =>
  db
    .updateTable('carts')
    .set({ hold_state: 'sold', updated_at: $.at })
    .where('id', '=', $.cart)
    .where('hold_state', '=', 'holding')
    .where('expires_at', '>', $.at),
);
const confirmBooking = prepared((db, $: { id: number; method: number; order: number; at: string }) =>
  db
    .updateTable('bookings')
    .set({
      status: 'confirmed',
      status_reason: null,
      payment_method: $.method,
      order_id: $.order,
      confirmed_at: $.at,
      updated_at: $.at,
    })
    .where('id', '=', $.id)
    .where('status', '=', 'pending'),
);
const newActivity = prepared((db, $: { user: number; description: string; at: string }) =>
  db
    .insertInto('activity_log')
    .values({ user_id: $.user, type: 'ticket_purchased', description: $.description, created_at: $.at }),
);

/** What a confirmation leaves: the seller's order (its id and delivery deadline) and the event shown. */
export interface Sale {
  orderId: number;
  deliverBy: string | null;
  event: EventShown;
}

/**
 * Claims the booking's tickets for good (the cart from holding to sold, only while its hold lasts) and confirms
 * the booking: the seller's sale (pending), the seller's notification, the buyer's activity, in the caller's
 * transaction. Answers null when the hold had ended (nothing changed).
 */
export async function fulfil(
  db: Db,
  b: BookingRow,
  terms: Terms,
  method: PaymentMethod,
  now: Date,
): Promise<Sale | null> {
  const at = iso(now);
  if ((await claimHold.affected(db, { cart: b.cart_id, at })) !== 1n) return null;
  const event = await eventShownById.takeFirst(db, { id: b.event_id });
  if (!event) throw new Error(`event ${b.event_id} of booking ${b.id} vanished`);
  const order = await recordSale(db, {
    booking_no: b.booking_no,
    listing_id: b.listing_id,
    seller_id: b.seller_id,
    event_id: b.event_id,
    quantity: b.quantity,
    // the seller's takings at its own price and currency
    amount: terms.price * b.quantity,
    currency: terms.currency as CurrencyCode,
    status: 'pending',
    created_at: at,
    buyer_user_id: b.user_id,
    sold: terms,
    event_date: event.event_date,
    event_time: event.event_time,
    transfer_window_hours: event.transfer_window_hours,
  });
  await confirmBooking.execute(db, { id: b.id, method, order: order.id, at });
  const tickets = `${b.quantity} ticket${b.quantity === 1 ? '' : 's'}`;
  await notify(db, {
    userId: b.seller_id,
    name: 'new_order',
    description: `New order ${b.booking_no}: ${tickets} for ${event.match_name}.`,
    link: notificationLinks.sale('pending', order.id),
    at,
  });
  await newActivity.execute(db, {
    user: b.user_id,
    description: `Bought ${tickets} for ${event.match_name} (${b.booking_no}).`,
    at,
  });
  return { orderId: order.id, deliverBy: order.deliver_by, event };
}

type NewPayment = {
  method: PaymentMethod;
  gateway: string;
  reference: string;
  amount: number;
  status: string;
  failure?: string | null;
  /** how the card holder was authenticated (payments.authentication), when known */
  authentication?: string | null;
};
const upsertPayment = prepared(
  (
    db,
    $: {
      booking: number;
      buyer: number;
      method: number;
      gateway: string;
      reference: string;
      amount: number;
      currency: string;
      status: string;
      failure: string | null;
      authentication: string | null;
      at: string;
    },
  ) =>
    db
      .insertInto('payments')
      .values({
        booking_id: $.booking,
        buyer_id: $.buyer,
        payment_method: $.method,
        gateway: $.gateway,
        reference: $.reference,
        amount: $.amount,
        currency: $.currency,
        status: $.status,
        failure_reason: $.failure,
        authentication: $.authentication,
        refunded_amount: 0,
        created_at: $.at,
        updated_at: $.at,
      })
      .onConflict((oc) =>
        oc.columns(['gateway', 'reference']).doUpdateSet({
          status: $.status,
          failure_reason: $.failure,
          authentication: $.authentication,
          updated_at: $.at,
        }),
      ),
);
export async function recordPayment(db: Db, b: BookingRow, p: NewPayment, now: Date) {
  await upsertPayment.execute(db, {
    booking: b.id,
    buyer: b.buyer_id,
    method: p.method,
    gateway: p.gateway,
    reference: p.reference,
    amount: p.amount,
    currency: b.currency,
    status: p.status,
    failure: p.failure ?? null,
    authentication: p.authentication ?? null,
    at: iso(now),
  });
}

/** The booking just confirmed, as the purchase page shows it, from the values in hand (nothing read again). */
function confirmedView(
  b: BookingRow,
  terms: Terms,
  sale: Sale,
  payment: NonNullable<Booking['payment']>,
  now: Date,
): Booking {
  const at = iso(now);
  return bookingView(
    {
      ...b,
      status: 'confirmed',
      status_reason: null,
      payment_method: payment.payment_method,
      order_id: sale.orderId,
      confirmed_at: at,
      category: terms.category,
      ticket_block: terms.ticket_block,
      row: terms.row,
      ticket_type_id: terms.ticket_type_id,
      seats: terms.seats,
      face_value: terms.face_value,
      restrictions: terms.restrictions,
      seller_currency: terms.currency,
      ...sale.event,
    },
    payment,
    {
      order_status: 'pending',
      quantity: b.quantity,
      delivered: 0,
      deliver_by: sale.deliverBy,
      tickets: [],
      instruction_file_name: null,
      download_available: false,
      // a pending order: no claim before the seller accepts it
      claim: null,
      claim_until: null,
      transfer: transferStateOf({
        ticket_type_id: terms.ticket_type_id,
        transfers_open_at: transfersOpenOf(
          sale.event.event_date,
          sale.event.event_time,
          sale.event.transfer_window_hours ?? null,
        ),
        transfer_accepted_at: null,
        transfer_reminders: 0,
      }),
    },
    now,
  );
}

/**
 * Method 1: pays from the buyer's SB Pay wallet through the ledger and confirms, in one transaction. Too little
 * balance changes nothing (the debit and the claim are undone to a savepoint) and answers Failed.
 */
export async function confirmWithWallet(db: Db, buyerId: number, bookingId: number, now: Date): Promise<Outcome> {
  const b = await lockBooking(db, buyerId, bookingId, now);
  if (b.status === 'confirmed') return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  if (b.status !== 'pending') return outcome(db, b, notPayable(b), now);
  requireGuests(b);
  const terms = await termsOf(db, b.cart_id);
  const total = chargeOf(b, terms.ticket_type_id, 1);
  await runFixed(db, 'SAVEPOINT sbpay');
  let sale: Sale | null;
  let reference: string;
  try {
    const posting = await payFromWallet(
      db,
      {
        userId: buyerId,
        currency: b.currency,
        amount: total,
        reference: `booking:${b.id}`,
        description: `Purchase ${b.booking_no}`,
        bookingId: b.id,
      },
      now,
    );
    reference = `ledger:${posting.entryId}`;
    await recordPayment(
      db,
      b,
      { method: 1, gateway: 'sbpay', reference, amount: total, status: 'succeeded', authentication: 'not_applicable' },
      now,
    );
    sale = await fulfil(db, b, terms, 1, now);
  } catch (error) {
    if (!(error instanceof InsufficientFunds)) throw error;
    await runFixed(db, 'ROLLBACK TO SAVEPOINT sbpay');
    const balance = (await walletBalances(db, buyerId)).get(b.currency) ?? 0;
    const message = `Insufficient SB Pay balance: ${money(balance, b.currency)} available, ${money(total, b.currency)} needed. Top up or choose another payment method.`;
    await noteFailure(db, b, message, now);
    return outcome(db, b, result(b, false, message, 'insufficient_funds'), now);
  }
  if (!sale) {
    await runFixed(db, 'ROLLBACK TO SAVEPOINT sbpay');
    const cart = await db
      .selectFrom('carts')
      .select(['id', 'listing_id', 'quantity'])
      .where('id', '=', b.cart_id)
      .executeTakeFirstOrThrow();
    await expireCart(db, cart, now);
    return outcome(db, b, result(b, false, HOLD_EXPIRED_MESSAGE, 'hold_expired'), now);
  }
  await runFixed(db, 'RELEASE SAVEPOINT sbpay');
  const payment = {
    payment_method: 1 as const,
    gateway: 'sbpay' as const,
    status: 'succeeded' as const,
    reference,
    amount: total,
    currency: b.currency as CurrencyCode,
    refunded_amount: 0,
    authentication: 'not_applicable' as const,
  };
  return { result: result(b, true, CONFIRMED_MESSAGE, null), booking: confirmedView(b, terms, sale, payment, now) };
}
