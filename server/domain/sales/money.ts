import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { currentRequest, noteMoney } from '../../ops/request-facts';
import type { Payments } from '../../payments/port';
import { accountOf, postEntry, purchaseEscrowAccount, walletAccount } from '../ledger';
import type { bookingOfOrder } from './details';
import type { OrderRow } from './orders';
import type { CurrencyCode } from './totals';

// ---------------------------------------------------------------------------------------------------------
// Money: refunds and earnings through the ledger

/** A seller's earnings per currency: credited when a sale completes, what a payout will pay from. */
export const sellerEarningsKey = (sellerId: number, currency: string) => `seller_earnings:${sellerId}:${currency}`;
/** The platform's sales clearing per currency: buyers' money taken in, sellers' earnings paid out. */
export const platformSalesKey = (currency: string) => `platform_sales:${currency}`;

type BookingOfOrder = NonNullable<Awaited<ReturnType<typeof bookingOfOrder>>>;

async function succeededPayments(db: Db, bookingId: number) {
  return db
    .selectFrom('payments')
    .select(['id', 'gateway', 'reference', 'amount', 'currency', 'payment_method'])
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'succeeded')
    .execute();
}

/**
 * Gives the buyer back what it paid: SB Pay from the purchase escrow to its wallet (a ledger entry, once per
 * order), a card or stored card through the gateway's refund (which refunds a payment once however often asked).
 */
export async function refundBooking(
  db: Db,
  b: BookingOfOrder,
  o: NonNullable<OrderRow>,
  now: Date,
  payments: Payments | null,
) {
  for (const p of await succeededPayments(db, b.id)) {
    const amount = Number(p.amount);
    if (p.gateway === 'sbpay') {
      const escrow = await purchaseEscrowAccount(db, p.currency, b.id, now);
      const wallet = await walletAccount(db, b.buyer_id, p.currency, now);
      await postEntry(
        db,
        {
          kind: 'sale_refund',
          reference: `order:${o.id}`,
          description: `Refund of ${o.booking_no}`,
          lines: [
            { accountId: escrow, currency: p.currency, amount: -amount },
            { accountId: wallet, currency: p.currency, amount },
          ],
        },
        now,
      );
    } else {
      if (!payments) throw new Error('a card refund needs the payment gateways');
      if (p.payment_method === 3) {
        await payments.storedCard.refund(db, p.reference, amount, p.currency as CurrencyCode);
      } else {
        await payments.card.refund(db, p.reference, now);
      }
    }
    await db
      .updateTable('payments')
      .set({ status: 'refunded', refunded_amount: sql<number>`amount`, updated_at: now.toISOString() })
      .where('id', '=', p.id)
      .execute();
    // logged with the request's line once its transaction commits
    noteMoney(currentRequest.getStore(), {
      action: 'refund',
      amount,
      currency: p.currency,
      gateway: p.gateway,
      order_id: o.id,
      booking_id: b.id,
    });
  }
}

/**
 * A completed sale: the seller's earnings account (`seller_earnings:<seller>:<currency>`, never below zero) is
 * credited with the payout from the platform's sales clearing; what the buyer paid from SB Pay leaves the purchase
 * escrow for the clearing in the same entry (card money is at the gateway, outside the ledger). Once per order.
 */
export async function creditEarnings(db: Db, o: NonNullable<OrderRow>, booking: BookingOfOrder | undefined, now: Date) {
  const payout = Number(o.amount);
  const lines = new Map<number, { currency: string; amount: number }>();
  const add = (accountId: number, currency: string, amount: number) => {
    const l = lines.get(accountId) ?? { currency, amount: 0 };
    l.amount += amount;
    lines.set(accountId, l);
  };
  const clearing = (currency: string) =>
    accountOf(
      db,
      { key: platformSalesKey(currency), kind: 'platform_sales', ownerId: null, currency, allowNegative: true },
      now,
    );
  if (booking) {
    for (const p of await succeededPayments(db, booking.id)) {
      if (p.gateway !== 'sbpay') continue;
      add(await purchaseEscrowAccount(db, p.currency, booking.id, now), p.currency, -Number(p.amount));
      add(await clearing(p.currency), p.currency, Number(p.amount));
    }
  }
  if (payout > 0) {
    const earnings = await accountOf(
      db,
      {
        key: sellerEarningsKey(o.seller_id, o.currency),
        kind: 'seller_earnings',
        ownerId: o.seller_id,
        currency: o.currency,
      },
      now,
    );
    add(await clearing(o.currency), o.currency, -payout);
    add(earnings, o.currency, payout);
  }
  const list = [...lines.entries()].filter(([, l]) => l.amount !== 0).map(([accountId, l]) => ({ accountId, ...l }));
  if (list.length < 2) return;
  await postEntry(
    db,
    { kind: 'sale_earnings', reference: `order:${o.id}`, description: `Sale ${o.booking_no} completed`, lines: list },
    now,
  );
}
