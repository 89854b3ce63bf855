import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type Booking,
  guestProblems,
  latestBirthDate,
  PURCHASE_TEXT,
  type PurchaseContext,
  purchaseMachine,
} from './purchase.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const breakdown = (quantity: number, method: 1 | 2 | 3) => ({
  currency: 'GBP' as const,
  ticket_quantity: quantity,
  ticket_price: 5000,
  sub_total: 5000 * quantity,
  service_fee: 500 * quantity,
  shipping_fee: 0,
  tax: 100 * quantity,
  payment_method: method,
  payment_fee: method === 1 ? 0 : 100,
  total_with_payment_fee: 5600 * quantity + (method === 1 ? 0 : 100),
  grand_total: 5600 * quantity,
});
const listing = {
  sNo: 31,
  sell_ticket_id: 31,
  matchId: 5,
  match_id: 5,
  quantity: 6,
  split_type: 'any',
  split_list: [1, 2, 4],
  match_name: 'Arsenal vs Chelsea',
  match_date: '2027-01-10',
  match_time: '15:00',
  stadium_name: 'Emirates',
  country_name: 'England',
  city_name: 'London',
  Category: 'Longside',
  ticket_block: '101',
  row: 'A',
  Ticket_type: 'E-ticket',
  ticket_type_id: 1,
  price: 5000,
  currency: 'GBP',
};
const address = {
  id: 11,
  address_id: 11,
  first_name: 'Sam',
  last_name: 'Seller',
  email: 'seller@demo.test',
  country_code: '+44',
  mobile_number: '7700900000',
  country_id: 44,
  country_name: 'England',
  city_id: 3,
  city_name: 'London',
  address: '1 High Street',
  zip_code: 'N1 1AA',
  address_type: 'billing',
  primary_address: 1,
};
const paymentMethods = {
  wallet: { amount: 100_000, currency: 'GBP', currencyIcons: '£' },
  linked_cards: {
    data: [
      {
        id: 1,
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2030,
        holder_name: 'Sam Seller',
        recurringDetailReference: 'sandbox_visa_4242',
        variant: 'visa',
        number: '**** 4242',
        gateway: 'sandbox',
      },
    ],
  },
  methods: [
    { payment_method: 1, name: 'SB Pay', fee_bps: 0, available: 1 },
    { payment_method: 2, name: 'Card', fee_bps: 250, available: 1 },
    { payment_method: 3, name: 'Stored card', fee_bps: 150, available: 1 },
  ],
};
const panel = { listing, breakdown: breakdown(1, 1), addresses: [address], paymentMethods };
const panelWithoutAddress = { ...panel, addresses: [] };
const cart = { cart_id: 9, status: 'held', message: 'held', expires_at: '', hold_seconds_left: 900 };
const HOLD_SECONDS = 900;
const booking = (guests: boolean): Booking =>
  ({
    booking_id: 42,
    booking_no: 'BK00000042',
    cart_id: 9,
    status: 'pending',
    status_reason: null,
    quantity: 1,
    price_breakdown: breakdown(1, 1),
    guest_data: { list: guests ? [{ index: 1, required_fields: ['first_name', 'last_name'] }] : [] },
    attendees: [],
    guest_details_complete: guests ? 0 : 1,
    expires_at: '',
    hold_seconds_left: HOLD_SECONDS,
  }) as unknown as Booking;
const outcome = (ok: boolean, reason: string | null = null, message = 'Insufficient SB Pay balance') => ({
  result: {
    status: ok ? 1 : 0,
    booking_status: ok ? 'Success' : 'Failed',
    message: ok ? PURCHASE_TEXT.confirmed : message,
    reason,
    refunded: false,
    booking_id: 42,
    booking_no: 'BK00000042',
  },
  booking: { ...booking(false), status: ok ? 'confirmed' : 'pending' },
});
const challenge = {
  ...outcome(false, 'requires_action', 'Your bank asks you to confirm this payment.'),
  result: {
    ...outcome(false, 'requires_action', 'Your bank asks you to confirm this payment.').result,
    action: { gateway: 'sandbox', type: 'threeDS2', token: 'sb3ds_1_secret', data: {} },
  },
};
const AUTH_FAILED = 'Payment failed: Your bank could not confirm it was you (3-D Secure). Nothing was charged.';
const badBilling = new ApiError(422, PURCHASE_TEXT.noBillingAddress, [
  { path: '/body/postal_code', message: 'must not be empty' },
]);
const badGuests = new ApiError(422, PURCHASE_TEXT.guestsMissing, [
  { path: '/body/attendees/0/last_name', message: 'must not be empty' },
]);

const events = [
  { type: 'xstate.done.actor.loadPanel', output: panel },
  { type: 'xstate.done.actor.loadPanel', output: panelWithoutAddress },
  { type: 'xstate.error.actor.loadPanel', error: new ApiError(0, 'offline') },
  { type: 'panel.retried' },
  { type: 'quantity.changed', quantity: 2 },
  { type: 'quantity.changed', quantity: 3 },
  { type: 'method.changed', method: 1 },
  { type: 'method.changed', method: 2 },
  { type: 'method.changed', method: 3 },
  { type: 'storedCard.chosen', reference: 'sandbox_visa_4242' },
  { type: 'xstate.done.actor.recalculate', output: breakdown(2, 1) },
  { type: 'xstate.error.actor.recalculate', error: new ApiError(0, 'offline') },
  { type: 'address.chosen', address: 'other' },
  { type: 'address.chosen', address: 11 },
  { type: 'xstate.done.actor.loadCountries', output: [{ id: 44, name: 'England', short_name: 'EN' }] },
  { type: 'xstate.error.actor.loadCountries', error: new ApiError(0, 'offline') },
  { type: 'countries.retried' },
  { type: 'billing.changed', field: 'country', value: 44 },
  { type: 'billing.changed', field: 'first_name', value: 'Ann' },
  { type: 'billing.changed', field: 'last_name', value: 'Buyer' },
  { type: 'billing.changed', field: 'email', value: 'ann@example.test' },
  { type: 'billing.changed', field: 'address', value: '2 Low Road' },
  { type: 'billing.changed', field: 'postal_code', value: 'E1 1AA' },
  { type: 'xstate.done.actor.loadCities', output: [{ id: 3, name: 'London', country_id: 44 }] },
  { type: 'xstate.error.actor.loadCities', error: new ApiError(0, 'offline') },
  { type: 'purchase.submitted' },
  { type: 'xstate.done.actor.createCart', output: cart },
  { type: 'xstate.error.actor.createCart', error: new ApiError(409, 'Sorry, only 1 tickets are left.') },
  { type: 'xstate.done.actor.createBooking', output: booking(false) },
  { type: 'xstate.done.actor.createBooking', output: booking(true) },
  { type: 'xstate.error.actor.createBooking', error: badBilling },
  { type: 'xstate.error.actor.createBooking', error: new ApiError(500, 'boom') },
  { type: 'guest.changed', index: 1, field: 'first_name', value: 'Bo' },
  { type: 'guests.copied' },
  { type: 'guests.submitted' },
  { type: 'xstate.done.actor.submitGuests', output: { ...booking(true), guest_details_complete: 1 } },
  { type: 'xstate.error.actor.submitGuests', error: badGuests },
  { type: 'xstate.error.actor.submitGuests', error: new ApiError(409, 'expired') },
  { type: 'xstate.error.actor.submitGuests', error: new ApiError(500, 'boom') },
  { type: 'xstate.done.actor.confirmSbPay', output: outcome(true) },
  { type: 'xstate.done.actor.confirmSbPay', output: outcome(false, 'insufficient_funds') },
  { type: 'xstate.done.actor.confirmSbPay', output: outcome(false, 'hold_expired', 'The hold ended') },
  { type: 'xstate.error.actor.confirmSbPay', error: new ApiError(0, 'offline') },
  { type: 'xstate.done.actor.cardPayment', output: { status: 'succeeded', paymentIntentId: 'pi_1' } },
  { type: 'xstate.done.actor.cardPayment', output: { status: 'cancelled' } },
  { type: 'xstate.error.actor.cardPayment', error: new Error('crashed') },
  { type: 'xstate.done.actor.confirmCardBooking', output: outcome(true) },
  { type: 'xstate.done.actor.confirmCardBooking', output: outcome(false, 'payment_not_completed', 'Not paid') },
  { type: 'xstate.done.actor.confirmCardBooking', output: outcome(false, 'hold_expired', 'The hold ended') },
  { type: 'xstate.error.actor.confirmCardBooking', error: new ApiError(500, 'boom') },
  { type: 'xstate.done.actor.payStoredCard', output: outcome(true) },
  {
    type: 'xstate.done.actor.payStoredCard',
    output: outcome(false, 'card_declined', 'Payment failed: Your card was declined.'),
  },
  { type: 'xstate.done.actor.payStoredCard', output: outcome(false, 'booking_cancelled', 'Cancelled') },
  { type: 'xstate.error.actor.payStoredCard', error: new ApiError(502, 'gateway down') },
  { type: 'xstate.done.actor.payStoredCard', output: challenge },
  { type: 'challenge.completed', details: { threeDSResult: 'sb3ds_1_secret' } },
  { type: 'challenge.cancelled' },
  { type: 'xstate.done.actor.submitChallenge', output: outcome(true) },
  { type: 'xstate.done.actor.submitChallenge', output: outcome(false, 'authentication_failed', AUTH_FAILED) },
  { type: 'xstate.done.actor.submitChallenge', output: outcome(false, 'hold_expired', 'The hold ended') },
  { type: 'xstate.error.actor.submitChallenge', error: new ApiError(409, 'not waiting') },
  { type: 'payment.started' },
  { type: 'xstate.done.actor.reprice', output: breakdown(1, 2) },
  { type: 'xstate.error.actor.reprice', error: new ApiError(0, 'offline') },
  { type: 'booking.cancelled' },
  { type: 'xstate.done.actor.cancelBooking', output: { ...booking(false), status: 'cancelled' } },
  { type: 'xstate.error.actor.cancelBooking', error: new ApiError(409, 'confirmed already') },
  { type: 'purchase.restarted' },
  { type: 'after.holdEnds' },
];

const MANDATORY = ['first_name', 'last_name', 'email', 'address', 'postal_code'] as const;

// what the guards read: the choices, how much of the billing form is filled, the guests' answers
const identity = (s: { value: unknown; context: PurchaseContext }) => ({
  value: s.value,
  method: s.context.method,
  address: s.context.addressChoice,
  addresses: s.context.addresses.length,
  // how much of the billing form is filled matters only while it shows
  billing:
    s.context.addressChoice === 'other'
      ? MANDATORY.filter((f) => s.context.billing[f] !== '').length + (s.context.billing.country ? 1 : 0)
      : null,
  guests: s.context.booking ? Object.keys(guestProblems(s.context.booking, s.context.guests, new Date())).length : null,
  booking: s.context.booking?.guest_data.list.length ?? null,
});

const ACTORS = [
  'loadPanel',
  'recalculate',
  'reprice',
  'loadCountries',
  'loadCities',
  'createCart',
  'createBooking',
  'submitGuests',
  'confirmSbPay',
  'confirmCardBooking',
  'payStoredCard',
  'submitChallenge',
  'cancelBooking',
  'cardPayment',
] as const;

function start() {
  const control = controllableActors(ACTORS);
  let keys = 0;
  const actor = createActor(purchaseMachine.provide({ actors: control.actors }), {
    input: { sellTicketId: 31, matchId: 5, currency: 'GBP', makeKey: () => `key-${++keys}` },
  });
  const toasts: string[] = [];
  actor.on('notify', (e) => toasts.push(e.message));
  actor.start();
  return { control, actor, toasts };
}

describe('purchase statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(purchaseMachine, {
    events,
    input: { sellTicketId: 31, matchId: 5, currency: 'GBP', makeKey: () => 'k' },
    identity,
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(purchaseMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { control, actor, toasts } = start();
      let last = '';
      await replay(
        path,
        actor,
        async (event) => {
          last = event.type;
          if (event.type === 'after.holdEnds') {
            await vi.advanceTimersByTimeAsync(HOLD_SECONDS * 1000);
            return true;
          }
          return control.settle(event);
        },
        (real) => {
          const context = real.context as PurchaseContext;
          if (real.matches('loadFailed')) expect(toasts.at(-1)).toBe(PURCHASE_TEXT.loadFailed);
          if (real.matches({ submitting: 'creatingCart' })) {
            // the cart is the chosen listing, quantity and method
            expect(control.pending('createCart')?.input).toMatchObject({
              context: { sellTicketId: 31, matchId: 5, quantity: context.quantity, method: context.method },
            });
          }
          if (real.matches({ submitting: 'creatingBooking' })) {
            expect(context.addressChoice).not.toBeNull();
            expect(context.cart?.cart_id).toBe(9);
          }
          if (real.matches('editing') && last === 'purchase.submitted') {
            if (context.addressChoice === null) expect(toasts.at(-1)).toBe(PURCHASE_TEXT.noBillingAddress);
          }
          if (real.matches('guests') && last === 'guests.submitted') {
            expect(toasts.at(-1)).toBe(PURCHASE_TEXT.guestsMissing);
            expect(Object.keys(context.guestErrors).length).toBeGreaterThan(0);
          }
          if (real.matches('sendingGuests')) {
            expect(guestProblems(context.booking, context.guests, new Date())).toEqual({});
          }
          if (real.matches({ paying: 'storedCard' })) {
            expect(control.pending('payStoredCard')).toBeDefined();
            expect(context.storedCard).toBe('sandbox_visa_4242');
          }
          if (real.matches({ paying: 'challenge' })) {
            // the bank's challenge shows; nothing is charged and the hold runs on
            expect(context.action).toMatchObject({ gateway: 'sandbox', token: 'sb3ds_1_secret' });
            expect(context.holdDeadline).not.toBeNull();
          }
          if (real.matches({ paying: 'answeringChallenge' })) {
            expect(control.pending('submitChallenge')?.input).toMatchObject({
              details: { threeDSResult: 'sb3ds_1_secret' },
            });
          }
          if (real.matches({ paying: 'card' })) {
            // the card step charges the booking's total for the card method
            expect(control.pending('cardPayment')?.input).toMatchObject({ bookingId: 42, bookingNo: 'BK00000042' });
          }
          if (real.matches({ paying: 'confirmingCard' })) {
            expect(control.pending('confirmCardBooking')?.input).toMatchObject({ paymentIntentId: 'pi_1' });
          }
          if (real.matches('payable')) {
            // the hold stays: a deadline, and the booking still pending
            expect(context.holdDeadline).not.toBeNull();
            expect(context.booking?.status).not.toBe('confirmed');
            if (last === 'xstate.done.actor.payStoredCard')
              // the server's reason already reads 'Payment failed: {reason}': shown once, not prefixed again
              expect(toasts.at(-1)).toBe('Payment failed: Your card was declined.');
            if (last === 'xstate.done.actor.confirmSbPay') expect(toasts.at(-1)).toBe('Insufficient SB Pay balance');
            if (last === 'xstate.error.actor.payStoredCard') expect(toasts.at(-1)).toBe(PURCHASE_TEXT.processingFailed);
            if (last === 'challenge.cancelled') expect(context.failure).toBe(PURCHASE_TEXT.challengeCancelled);
            if (last === 'xstate.done.actor.submitChallenge') expect(toasts.at(-1)).toBe(AUTH_FAILED);
            if (last.startsWith('xstate.') && last.endsWith('submitChallenge')) expect(context.action).toBeNull();
            if (last.startsWith('xstate.error.actor.confirm'))
              expect(toasts.at(-1)).toBe(PURCHASE_TEXT.confirmationFailed);
          }
          if (real.matches('confirmed')) {
            expect(toasts.at(-1)).toBe(PURCHASE_TEXT.confirmed);
            expect(real.output).toMatchObject({ status: 'confirmed', bookingNo: 'BK00000042' });
          }
          if (real.matches('cancelled')) expect(real.output).toEqual({ status: 'cancelled' });
        },
      );
      actor.stop();
    });
  }

  it('a failed payment keeps the booking and its hold; switching method reprices, then pays by the new method', async () => {
    const { control, actor, toasts } = start();
    await control.settle({ type: 'xstate.done.actor.loadPanel', output: panel });
    actor.send({ type: 'purchase.submitted' });
    await control.settle({ type: 'xstate.done.actor.createCart', output: cart });
    await control.settle({ type: 'xstate.done.actor.createBooking', output: booking(false) });
    const firstKey = (control.pending('confirmSbPay')?.input as { context: PurchaseContext } | undefined)?.context.keys
      .pay;
    await control.settle({ type: 'xstate.done.actor.confirmSbPay', output: outcome(false, 'insufficient_funds') });
    expect(actor.getSnapshot().matches('payable')).toBe(true);
    expect(toasts.at(-1)).toBe('Insufficient SB Pay balance');
    actor.send({ type: 'method.changed', method: 3 });
    // priced from the booking itself, not from the listing's stock (its hold took those tickets)
    expect(control.pending('reprice')?.input).toEqual({ bookingId: 42, method: 3 });
    await control.settle({ type: 'xstate.done.actor.reprice', output: breakdown(1, 3) });
    actor.send({ type: 'payment.started' });
    const input = control.pending('payStoredCard')?.input as { context: PurchaseContext };
    expect(input.context.booking?.booking_id).toBe(42);
    expect(input.context.keys.pay).not.toBe(firstKey);
    await control.settle({ type: 'xstate.done.actor.payStoredCard', output: outcome(true) });
    expect(actor.getSnapshot().output).toMatchObject({ status: 'confirmed', bookingNo: 'BK00000042' });
  });

  it('a method that cannot be priced goes back to the one its total is for (what is shown is what is charged)', async () => {
    const { control, actor, toasts } = start();
    await control.settle({ type: 'xstate.done.actor.loadPanel', output: panel });
    actor.send({ type: 'purchase.submitted' });
    await control.settle({ type: 'xstate.done.actor.createCart', output: cart });
    await control.settle({ type: 'xstate.done.actor.createBooking', output: booking(false) });
    await control.settle({ type: 'xstate.done.actor.confirmSbPay', output: outcome(false, 'insufficient_funds') });
    const shown = actor.getSnapshot().context.breakdown;
    actor.send({ type: 'method.changed', method: 3 });
    await control.settle({ type: 'xstate.error.actor.reprice', error: new ApiError(0, 'offline') });
    expect(actor.getSnapshot().context.method).toBe(shown?.payment_method);
    expect(actor.getSnapshot().context.breakdown).toEqual(shown);
    expect(toasts.at(-1)).toBe(PURCHASE_TEXT.priceFailed);
  });

  it('the hold runs on across a failed payment, and the panel says when it ran out', async () => {
    const { control, actor } = start();
    await control.settle({ type: 'xstate.done.actor.loadPanel', output: panel });
    actor.send({ type: 'purchase.submitted' });
    await control.settle({ type: 'xstate.done.actor.createCart', output: cart });
    await control.settle({ type: 'xstate.done.actor.createBooking', output: booking(false) });
    await vi.advanceTimersByTimeAsync(600_000);
    await control.settle({ type: 'xstate.error.actor.confirmSbPay', error: new ApiError(0, 'offline') });
    expect(actor.getSnapshot().matches('payable')).toBe(true);
    // the 15 minutes count from the booking, not from the failure
    await vi.advanceTimersByTimeAsync(299_000);
    expect(actor.getSnapshot().matches('payable')).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().matches('expired')).toBe(true);
  });

  it("the guest form's date of birth is limited to the calendar year two years ago", () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(latestBirthDate(now)).toBe('2024-12-31');
    const b = {
      ...booking(true),
      guest_data: { list: [{ index: 1, required_fields: ['date_of_birth'] }] },
    } as unknown as Booking;
    expect(guestProblems(b, { 1: { date_of_birth: '2024-12-31' } }, now)).toEqual({});
    expect(Object.keys(guestProblems(b, { 1: { date_of_birth: '2025-01-01' } }, now))).toEqual(['1.date_of_birth']);
  });
});
