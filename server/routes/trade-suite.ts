import Stripe from 'stripe';
import { auditLedger } from '../domain/ledger';
import { paymentsFrom } from '../payments';
import { freshServer } from '../test-support';
import { type Answer, type Server, userId } from './trade-testing';

/** The setup the trade test files share: a server whose Stripe webhook has a known secret, and two sellers. */

export const WEBHOOK_SECRET = 'whsec_test_secret_for_the_trade_tests';
export const stripe = new Stripe('sk_test_unused');

type Result = { status: number; booking_status: string; message: string; reason: string | null; refunded: boolean };
export const resultOf = (a: Answer) => (a.body.data as unknown as { result: Result }).result;
export const bookingOf = (a: Answer) =>
  (a.body.data as unknown as { booking: { status: string; status_reason: string | null } }).booking;

/** A fresh server with the seller and its rival logged in (each buys the other's listings). */
export async function openTradeServer() {
  const s = await freshServer({
    payments: paymentsFrom({ stripe: null, stripeWebhookSecret: WEBHOOK_SECRET, adyen: null }),
  });
  const [seller, rival] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
  const sellerId = await userId(s, 'seller@demo.test');
  const rivalId = await userId(s, 'rival@demo.test');
  return { s, seller, rival, sellerId, rivalId };
}

/** Closes the server once its ledger is checked whole (every file's purchases leave it balanced). */
export async function closeTradeServer(s: Server | undefined) {
  if (!s) return;
  try {
    const problems = await auditLedger(s.db);
    if (problems.length > 0) throw new Error(`the ledger is not whole: ${JSON.stringify(problems)}`);
  } finally {
    await s.close();
  }
}

/** The tickets of a listing on sale now. */
export const availableOf = async (s: Server, listingId: number) =>
  (await s.db.selectFrom('listings').select('available').where('id', '=', listingId).executeTakeFirstOrThrow())
    .available;
