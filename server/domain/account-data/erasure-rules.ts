import type { Db } from '../../db/database';

const money = (minor: number, currency: string) =>
  `${(Math.abs(minor) / 100).toFixed(2)} ${currency}${minor < 0 ? ' owed' : ''}`;

/** What each kind of ledger account holding money means to the person. */
function heldIn(kind: string, amount: string): string {
  if (kind === 'wallet') return `Your SB Pay wallet holds ${amount}: spend it or ask for it back first.`;
  if (kind === 'seller_earnings') return `${amount} of your earnings is waiting to be paid out.`;
  if (kind === 'payouts_in_flight') return `A payout of ${amount} is on its way to your bank.`;
  return `${amount} is held for you (${kind}).`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Why the seller's account cannot be erased now, each a sentence for the person (empty when nothing stands in
 * the way): money the platform holds for it or that it owes (any of its ledger accounts not at zero), orders it
 * sold that are not settled, purchases still open (their money is in escrow), a payout or deposit the back office
 * has not decided, listings still on sale. Erasing then would leave money with no one to pay or ask.
 */
export async function erasureBlockers(db: Db, sellerId: number): Promise<string[]> {
  const out: string[] = [];
  const held = await db
    .selectFrom('ledger_accounts')
    .select(['kind', 'currency', 'balance'])
    .where('owner_id', '=', sellerId)
    .where('balance', '<>', 0)
    .orderBy('kind')
    .orderBy('currency')
    .execute();
  for (const a of held) out.push(heldIn(a.kind, money(Number(a.balance), a.currency)));
  const count = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);
  const openSales = await count(
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('seller_id', '=', sellerId)
      .where('status', 'in', ['pending', 'confirmed', 'delivered'])
      .executeTakeFirst(),
  );
  if (openSales > 0)
    out.push(`${plural(openSales, 'order you sold is', 'orders you sold are')} not completed or cancelled yet.`);
  const openBuys = await count(
    db
      .selectFrom('bookings')
      .leftJoin('orders', 'orders.id', 'bookings.order_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('bookings.buyer_id', '=', sellerId)
      .where((eb) =>
        eb.or([
          eb('bookings.status', '=', 'pending'),
          eb.and([
            eb('bookings.status', '=', 'confirmed'),
            eb('orders.status', 'in', ['pending', 'confirmed', 'delivered']),
          ]),
        ]),
      )
      .executeTakeFirst(),
  );
  if (openBuys > 0)
    out.push(
      `${plural(openBuys, 'purchase is', 'purchases are')} still open: the payment is held in escrow until the tickets arrive.`,
    );
  const payouts = await count(
    db
      .selectFrom('payouts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'requested')
      .executeTakeFirst(),
  );
  if (payouts > 0) out.push(`${plural(payouts, 'payout is', 'payouts are')} waiting to be sent.`);
  const deposits = await count(
    db
      .selectFrom('deposits')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', sellerId)
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  );
  if (deposits > 0) out.push(`${plural(deposits, 'deposit request is', 'deposit requests are')} waiting for approval.`);
  const onSale = await count(
    db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'published')
      .where('available', '>', 0)
      .executeTakeFirst(),
  );
  if (onSale > 0) out.push(`${plural(onSale, 'listing is', 'listings are')} still on sale: unpublish or delete them.`);
  return out;
}

/** The refusal's message, to the account's owner or to the back office: nothing happened, and why. */
export const blockedMessage = (blockers: readonly string[], to: 'owner' | 'admin' = 'owner') =>
  `${to === 'owner' ? 'Your account' : 'This account'} cannot be erased while money is held or owed. ${blockers.join(' ')}`;
