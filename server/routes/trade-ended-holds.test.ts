import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_EXPIRED_MESSAGE } from '../domain/purchase/holds';
import { HOLD_MS } from '../domain/purchase/pricing';
import { freshServer } from '../test-support';
import { book, call, inlineBilling, makeBuyers, makeListing, newKey, type Server } from './trade-testing';

/**
 * A call refused because the hold it needs has ended frees that hold's tickets on the way, and the refusal
 * keeps it: the router undoes a refused call's writes, so the release went with it and the tickets stayed held
 * until some later read or the housekeeping met the cart.
 */
describe('a call refused for an ended hold frees its tickets at once', () => {
  let s: Server;
  let token: string;
  beforeAll(async () => {
    s = await freshServer();
    const [buyer] = await makeBuyers(s.db, 1, s.clock.now());
    token = (buyer as { token: string }).token;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const availableOf = async (id: number) =>
    (await s.db.selectFrom('listings').select('available').where('id', '=', id).executeTakeFirstOrThrow()).available;
  const holdStateOf = async (cartId: number) =>
    (await s.db.selectFrom('carts').select('hold_state').where('id', '=', cartId).executeTakeFirstOrThrow()).hold_state;

  it('a booking of an ended cart: 409, the tickets back in the same call, and a replay answers the same', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 4 });
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=3`,
      token,
    );
    const cartId = (cart.body.data as { cart_id: number }).cart_id;
    expect(await availableOf(listing.id)).toBe(1);
    s.clock.advance(HOLD_MS + 1);
    const key = newKey();
    const body = { cart_id: cartId, payment_method: 1, ...(await inlineBilling(s.db)) };
    const refused = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, token, body, key);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(HOLD_EXPIRED_MESSAGE);
    expect(await availableOf(listing.id)).toBe(4);
    expect(await holdStateOf(cartId)).toBe('released');
    const replayed = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, token, body, key);
    expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 409, body: refused.body });
    expect(await availableOf(listing.id)).toBe(4);
  });

  it("guest details or a card intent for a booking whose hold ended: 409, and the booking's tickets are back", async () => {
    for (const refusedCall of ['guests', 'intent'] as const) {
      const listing = await makeListing(s.db, s.clock.now(), { tickets: 4 });
      const booking = await book(s, token, listing, 2, 2);
      expect(await availableOf(listing.id)).toBe(2);
      s.clock.advance(HOLD_MS + 1);
      const refused =
        refusedCall === 'guests'
          ? await call(s, 'POST', `/purchase/atendee-update-bulk/${booking.booking_id}`, token, {
              attendees: [{ attendee_number: 1, fields: [{ field: 'first_name', value: 'Sam' }] }],
            })
          : await call(s, 'POST', '/payments/create-payment-intent', token, {
              gateway: 'stripe',
              amount: booking.price_breakdown.total_with_payment_fee,
              currency: 'GBP',
              metadata: { booking_id: booking.booking_id },
            });
      expect(refused.status, refusedCall).toBe(409);
      expect(await availableOf(listing.id), refusedCall).toBe(4);
      const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, token);
      expect((read.body.data as { status: string }).status).toBe('expired');
    }
  });
});
