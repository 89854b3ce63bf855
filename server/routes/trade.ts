import type { Context } from 'hono';
import type { AuthUser } from '../auth/session';
import type { AppEnv, Router } from '../contract/router';
import { inTransaction } from '../db/transaction';
import { eventPage, searchWithRecent } from '../domain/catalog-answers';
import { addTracking, markViewed, storedCards, trackingPage } from '../domain/purchase/account';
import { findListing, purchaseListingOf, recentlyViewed, unitPriceOf } from '../domain/purchase/catalog';
import { releaseDueHolds } from '../domain/purchase/holds';
import {
  PAYMENT_FEE_BPS,
  PAYMENT_METHOD_NAMES,
  type PaymentMethod,
  priceBreakdown,
  pricingProblem,
  splitList,
} from '../domain/purchase/pricing';
import {
  bookingHistory,
  cancelBooking,
  cardPaymentOwner,
  confirmWithCard,
  confirmWithWallet,
  createBooking,
  createCardIntent,
  createCart,
  findBooking,
  noteCardFailure,
  ownsBooking,
  payWithStoredCard,
  submitStoredCardDetails,
  updateAttendees,
} from '../domain/purchase/purchase';
import { sellerIdOf } from '../domain/sales/totals';
import { acceptTransfer } from '../domain/sales/transfers';
import { HttpError, MESSAGES } from '../http/errors';
import { purchaseMethodOf } from '../ops/metrics';
import { notePurchase } from '../ops/request-facts';
import { GatewayError, type Intent, type Payments } from '../payments/port';
import { type CardError, sandboxCardGateway } from '../payments/sandbox';
import { spend } from '../quotas/quota';

type CurrencyCode = 'GBP' | 'EUR' | 'USD' | 'AED';

/** The buyer a caller buys for: a team member buys for its seller (bookings, wallet, addresses, cards). */
const buyerOf = (user: AuthUser) => sellerIdOf(user);

const pageOf = (query: { page?: number; per_page?: number }, perPageDefault: number) => {
  const perPage = query.per_page ?? perPageDefault;
  const page = query.page ?? 1;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
};
const metaOf = (p: { page: number; perPage: number }, total: number) => ({
  current_page: p.page,
  last_page: Math.max(1, Math.ceil(total / p.perPage)),
  per_page: p.perPage,
  total,
});

const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);

const gatewayFailed = (error: GatewayError) => ({
  status: 502 as const,
  body: { success: false as const, message: error.message },
});

/** The raw body of the webhook (its signature covers these exact bytes), at most `limit` bytes. */
async function rawBody(c: Context<AppEnv>, limit: number): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  if (declared > limit) throw new HttpError(413, `The request body is too large (the limit is ${limit / 1024} KB).`);
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new HttpError(413, `The request body is too large (the limit is ${limit / 1024} KB).`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * The trade area and the purchase (issue 9): search, event page, listing data and price, cart (the 15-minute
 * hold), booking, guest details, payment by SB Pay, card intent or stored card, history, and the gateways'
 * webhook. Money and stock move only in the x-transaction operations, through server/domain/purchase.
 */
export function tradeRoutes({ route }: Router, payments: Payments) {
  route('/purchase/lmt-trade/events-search', 'get', async ({ user, query }, { db, clock, sharedAnswers }) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to) {
      throw invalid('/query/date_from', 'must not be after /query/date_to');
    }
    const now = clock.now();
    await releaseDueHolds(db, now);
    const currency = query.currency ?? 'GBP';
    const page = pageOf(query, 20);
    const { events, total, recent } = await searchWithRecent(
      db,
      buyerOf(user),
      query,
      currency,
      page,
      now,
      sharedAnswers,
    );
    return {
      status: 200,
      body: { success: true, data: { events, recently_viewed: recent, meta: metaOf(page, total) } },
    };
  });

  route(
    '/purchase/lmt-trade/events/{match_id}',
    'get',
    async ({ user, query, params }, { db, clock, sharedAnswers }) => {
      const now = clock.now();
      await releaseDueHolds(db, now);
      const currency = query.currency ?? 'GBP';
      const page = pageOf(query, 20);
      const shown = await eventPage(db, buyerOf(user), params.match_id, query, currency, page, sharedAnswers);
      if (!shown) throw new HttpError(404, 'Event not found.');
      const { found, tickets, total } = shown;
      return {
        status: 200,
        body: {
          success: true,
          data: { event: found.event, guest_fields: found.guestFields, tickets, meta: metaOf(page, total) },
        },
      };
    },
  );

  /** The listing data and the price of `quantity` (one of split_list) by `method`; 404 for one's own or none. */
  async function priced(
    db: Parameters<typeof findListing>[0],
    user: AuthUser,
    listingId: number,
    ask: { currency?: CurrencyCode; quantity?: number; payment_method?: PaymentMethod },
    quantityPath: string,
    now: Date,
  ) {
    await releaseDueHolds(db, now, { listingId });
    const listing = await findListing(db, buyerOf(user), listingId);
    if (!listing || listing.available === 0) throw new HttpError(404, 'These tickets were not found.');
    const currency = ask.currency ?? 'GBP';
    const split = splitList(listing.split_type, listing.available);
    const quantity = ask.quantity ?? split[0] ?? 1;
    if (!split.includes(quantity)) {
      throw invalid(quantityPath, `must be one of ${split.join(', ')} (how this listing splits)`);
    }
    const breakdown = priceBreakdown({
      currency,
      unitPrice: unitPriceOf(listing, currency),
      quantity,
      ticketTypeId: listing.ticket_type_id,
      method: ask.payment_method ?? 1,
    });
    const problem = pricingProblem(listing, breakdown, { listing: '/path/sell_ticket_id', quantity: quantityPath });
    if (problem) throw new HttpError(422, problem.message, [problem.error]);
    return { listing: purchaseListingOf(listing, currency, quantity), purchase: { price_breakdown: breakdown } };
  }

  route('/purchase/lmt-trade/tickets/{sell_ticket_id}', 'get', async ({ user, query, params }, { db, clock }) => ({
    status: 200,
    body: { success: true, data: await priced(db, user, params.sell_ticket_id, query, '/query/quantity', clock.now()) },
  }));

  route(
    '/purchase/lmt-trade/tickets-quantity-update/{sell_ticket_id}',
    'post',
    async ({ user, body, params }, { db, clock }) => ({
      status: 200,
      body: { success: true, data: await priced(db, user, params.sell_ticket_id, body, '/body/quantity', clock.now()) },
    }),
  );

  route('/purchase/lmt-trade/add-to-cart', 'post', async ({ user, query }, { db, clock }) => {
    const cart = await createCart(
      db,
      {
        buyerId: buyerOf(user),
        userId: user.id,
        listingId: query.sell_ticket_id,
        matchId: query.match_id,
        quantity: query.quantity,
        currency: query.currrency ?? 'GBP',
        method: query.payment_method ?? 1,
      },
      clock.now(),
    );
    return { status: 200, body: { success: true, message: cart.message, data: cart } };
  });

  route('/purchase/lmt-trade/inventory/buy/{sell_ticket_id}', 'post', async ({ user, body, params }, { db, clock }) => {
    const { cart_id, payment_method, lang: _lang, client_country: _country, ...billing } = body;
    const booking = await createBooking(
      db,
      {
        buyerId: buyerOf(user),
        userId: user.id,
        listingId: params.sell_ticket_id,
        cartId: cart_id,
        method: payment_method,
        billing,
      },
      clock.now(),
    );
    const needsGuests = booking.guest_details_complete === 0;
    return {
      status: 200,
      body: {
        success: true,
        message: needsGuests ? 'Booking created. Please submit all guest details.' : 'Booking created.',
        data: booking,
      },
    };
  });

  route('/purchase/atendee-update-bulk/{booking_id}', 'post', async ({ user, body, params }, { db, clock }) => {
    if (body.booking_id !== undefined && body.booking_id !== params.booking_id) {
      // another buyer's booking is not found, in the path or in the body
      const buyer = buyerOf(user);
      if (!(await ownsBooking(db, buyer, params.booking_id)) || !(await ownsBooking(db, buyer, body.booking_id))) {
        throw new HttpError(404, 'Booking not found.');
      }
      throw invalid('/body/booking_id', 'must be the booking of the path');
    }
    const booking = await updateAttendees(
      db,
      { buyerId: buyerOf(user), bookingId: params.booking_id, attendees: body.attendees },
      clock.now(),
    );
    return { status: 200, body: { success: true, message: 'Guest details saved.', data: booking } };
  });

  route('/purchase/lmt-trade/confirmation', 'post', async ({ user, body, c }, { db, clock }) => {
    try {
      const now = clock.now();
      let done: Awaited<ReturnType<typeof confirmWithWallet>>;
      if (body.payment_method === 1) {
        done = await confirmWithWallet(db, buyerOf(user), body.booking_id, now);
      } else {
        if (!body.payment_intent_id) {
          if (!(await ownsBooking(db, buyerOf(user), body.booking_id))) throw new HttpError(404, 'Booking not found.');
          throw invalid('/body/payment_intent_id', 'is required for payment_method 2');
        }
        done = await confirmWithCard(
          db,
          payments,
          { buyerId: buyerOf(user), bookingId: body.booking_id, intentId: body.payment_intent_id },
          now,
        );
      }
      notePurchase(c.get('facts'), purchaseMethodOf(body.payment_method), purchaseOutcome(done.result));
      return { status: 200, body: { success: true, message: done.result.message, data: done } };
    } catch (error) {
      if (error instanceof GatewayError) return gatewayFailed(error);
      throw error;
    }
  });

  route('/adyen/pay-with-saved-card', 'post', async ({ user, body, c }, { db, clock }) => {
    try {
      const done = await payWithStoredCard(
        db,
        payments,
        {
          buyerId: buyerOf(user),
          bookingId: body.booking_id,
          recurringDetailReference: body.recurringDetailReference,
          ...(body.browser_info ? { browserInfo: body.browser_info } : {}),
        },
        clock.now(),
      );
      notePurchase(c.get('facts'), 'stored_card', purchaseOutcome(done.result));
      return { status: 200, body: { success: true, message: done.result.message, data: done } };
    } catch (error) {
      if (error instanceof GatewayError) return gatewayFailed(error);
      throw error;
    }
  });

  route('/adyen/payment-details', 'post', async ({ user, body, c }, { db, clock }) => {
    try {
      const done = await submitStoredCardDetails(
        db,
        payments,
        { buyerId: buyerOf(user), bookingId: body.booking_id, details: body.details },
        clock.now(),
      );
      notePurchase(c.get('facts'), 'stored_card', purchaseOutcome(done.result));
      return { status: 200, body: { success: true, message: done.result.message, data: done } };
    } catch (error) {
      if (error instanceof GatewayError) return gatewayFailed(error);
      throw error;
    }
  });

  route('/payments/create-payment-intent', 'post', async ({ user, body }, { db, clock }) => {
    try {
      const intent = await createCardIntent(
        db,
        payments,
        {
          buyerId: buyerOf(user),
          bookingId: body.metadata.booking_id,
          amount: body.amount,
          currency: body.currency,
          orderId: body.metadata.order_id,
        },
        clock.now(),
      );
      return { status: 200, body: { success: true, data: intent } };
    } catch (error) {
      if (error instanceof GatewayError) return gatewayFailed(error);
      throw error;
    }
  });

  route('/payments/sandbox/confirm-card', 'post', async ({ user, body }, { db, clock }) => {
    if (payments.card.name !== 'sandbox') {
      throw new HttpError(409, 'The sandbox gateway is not in use: confirm the card with Stripe.js.');
    }
    const confirmed = await sandboxCardGateway.confirmCard(
      db,
      {
        clientSecret: body.client_secret,
        ownerId: buyerOf(user),
        number: body.card_number,
        expMonth: body.exp_month,
        expYear: body.exp_year,
        cvc: body.cvc,
      },
      clock.now(),
    );
    if (!confirmed) throw new HttpError(404, 'Payment intent not found.');
    return sandboxAnswer(confirmed);
  });

  route('/payments/sandbox/authenticate', 'post', async ({ user, body }, { db, clock }) => {
    if (payments.card.name !== 'sandbox') {
      throw new HttpError(409, 'The sandbox gateway is not in use: Stripe.js answers the challenge.');
    }
    const answered = await sandboxCardGateway.authenticate(
      db,
      { clientSecret: body.client_secret, ownerId: buyerOf(user) },
      clock.now(),
    );
    if (!answered) throw new HttpError(404, 'Payment intent not found.');
    if (answered === 'no_challenge') throw new HttpError(409, 'This payment asks for no authentication.');
    return sandboxAnswer(answered);
  });

  /** A sandbox intent as Stripe.js's confirmCardPayment or handleNextAction answers it. */
  function sandboxAnswer({ intent, error }: { intent: Intent; error: CardError | null }) {
    const status =
      intent.status === 'succeeded' || intent.status === 'requires_action'
        ? (intent.status as 'succeeded' | 'requires_action')
        : ('requires_payment_method' as const);
    return {
      status: 200 as const,
      body: {
        success: true as const,
        ...(error ? { message: error.message } : {}),
        data: {
          payment_intent: {
            id: intent.id,
            status,
            amount: intent.amount,
            currency: intent.currency,
            next_action: status === 'requires_action' ? { type: 'use_stripe_sdk' as const } : null,
          },
          error,
        },
      },
    };
  }

  route('/purchase/lmt-trade/payment-methods', 'get', async ({ user, query }, { db }) => {
    const currency = query.currency ?? 'GBP';
    const buyer = buyerOf(user);
    const [wallet, currencyRow, cards] = await Promise.all([
      db
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('owner_id', '=', buyer)
        .where('kind', '=', 'wallet')
        .where('currency', '=', currency)
        .executeTakeFirst(),
      db.selectFrom('currencies').select('symbol').where('code', '=', currency).executeTakeFirst(),
      storedCards(db, buyer),
    ]);
    const methods = ([1, 2, 3] as const).map((m) => ({
      payment_method: m,
      name: PAYMENT_METHOD_NAMES[m],
      fee_bps: PAYMENT_FEE_BPS[m],
      available: (m === 3 && cards.length === 0 ? 0 : 1) as 0 | 1,
    }));
    return {
      status: 200,
      body: {
        success: true,
        data: {
          payment_methods: {
            wallet: { amount: Number(wallet?.balance ?? 0), currency, currencyIcons: currencyRow?.symbol ?? currency },
            linked_cards: { data: cards },
            methods,
          },
        },
      },
    };
  });

  route('/purchase/lmt-trade/history', 'get', async ({ user, query }, { db, clock }) => {
    const page = pageOf(query, 10);
    const { rows, total } = await bookingHistory(db, buyerOf(user), query, page, clock.now());
    return { status: 200, body: { success: true, data: { booking_list: rows, meta: metaOf(page, total) } } };
  });

  route('/purchase/lmt-trade/bookings/{booking_id}', 'get', async ({ user, params, query }, { db, clock }) => {
    const now = clock.now();
    await releaseDueHolds(db, now, { buyerId: buyerOf(user) });
    const booking = await findBooking(db, buyerOf(user), params.booking_id, now, query.payment_method);
    if (!booking) throw new HttpError(404, 'Booking not found.');
    return { status: 200, body: { success: true, data: booking } };
  });

  route('/purchase/lmt-trade/bookings/{booking_id}/cancel', 'post', async ({ user, params }, { db, clock }) => {
    const booking = await cancelBooking(db, buyerOf(user), params.booking_id, clock.now());
    return { status: 200, body: { success: true, message: 'Booking cancelled.', data: booking } };
  });

  route(
    '/purchase/lmt-trade/bookings/{booking_id}/transfer-accepted',
    'post',
    async ({ user, params }, { db, clock }) => {
      const now = clock.now();
      await acceptTransfer(db, buyerOf(user), params.booking_id, now);
      const booking = await findBooking(db, buyerOf(user), params.booking_id, now);
      if (!booking) throw new HttpError(404, 'Booking not found.');
      return { status: 200, body: { success: true, message: 'Transfer marked as accepted.', data: booking } };
    },
  );

  route('/purchase/lmt-trade/tracking', 'get', async ({ user, query }, { db }) => {
    const page = pageOf(query, 20);
    const { rows, total } = await trackingPage(db, buyerOf(user), page);
    return { status: 200, body: { success: true, data: { tracking_list: rows, meta: metaOf(page, total) } } };
  });

  route('/purchase/lmt-trade/add-tracking', 'post', async ({ user, body }, deps) => {
    // every step is a row kept on the operator's disk: so many a day per buyer
    await spend(deps, 'tracking-steps-daily', buyerOf(user));
    return {
      status: 200,
      body: { success: true, data: await addTracking(deps.db, buyerOf(user), body, deps.clock.now()) },
    };
  });

  route('/purchase/lmt-trade/add-recently-viewed', 'post', async ({ user, body }, { db, clock }) => {
    const buyer = buyerOf(user);
    await markViewed(db, buyer, body.match_id, clock.now());
    return { status: 200, body: { success: true, data: { recently_viewed: await recentlyViewed(db, buyer, 'GBP') } } };
  });

  route('/payments/stripe/webhook', 'post', async ({ c }, { db, clock, log }) => {
    const payload = await rawBody(c, WEBHOOK_BODY_LIMIT);
    const event = payments.webhooks.verify(payload, c.req.header('stripe-signature') ?? '');
    if (!event) {
      return { status: 401, body: { success: false, message: 'The webhook signature is not valid.' } };
    }
    const now = clock.now();
    try {
      const duplicate = await inTransaction(db, async (trx) => {
        const fresh = await trx
          .insertInto('webhook_events')
          .values({
            event_id: event.id,
            gateway: 'stripe',
            type: event.type,
            outcome: 'received',
            received_at: now.toISOString(),
          })
          .onConflict((oc) => oc.column('event_id').doNothing())
          .returning('event_id')
          .executeTakeFirst();
        if (!fresh) return true;
        let outcome = 'ignored';
        const intent = event.intent;
        if (intent && (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed')) {
          const owner = await cardPaymentOwner(trx, [payments.card.name], intent.id);
          if (!owner) outcome = 'unknown_intent';
          else if (event.type === 'payment_intent.payment_failed') {
            await noteCardFailure(trx, owner.booking_id, event.failureMessage ?? 'The card was declined.', now);
            outcome = 'failure_noted';
          } else {
            try {
              const done = await confirmWithCard(
                trx,
                payments,
                { buyerId: owner.buyer_id, bookingId: owner.booking_id, intentId: intent.id, fromWebhook: true },
                now,
              );
              outcome = purchaseOutcome(done.result);
              notePurchase(c.get('facts'), 'card', outcome);
            } catch (error) {
              // guest details still missing: the browser's confirmation will finish it
              if (!(error instanceof HttpError)) throw error;
              outcome = 'not_ready';
            }
          }
        }
        await trx.updateTable('webhook_events').set({ outcome }).where('event_id', '=', event.id).execute();
        return false;
      });
      return { status: 200, body: { success: true, data: { received: true, duplicate } } };
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      log.warn({ err: error, eventId: event.id }, 'webhook: the gateway failed; Stripe will send the event again');
      // nothing was kept, so Stripe's retry is processed afresh
      return gatewayFailed(error);
    }
  });
}

/** A confirmation's result in a word, for the logs and the metrics: confirmed, or why it failed. */
const purchaseOutcome = (r: { status: number; reason: string | null }) =>
  r.status === 1 ? 'confirmed' : (r.reason ?? 'failed');
