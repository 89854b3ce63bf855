import { sql } from 'kysely';
import { book, call, makeBuyers, makeListing, type Server } from './trade-testing';

/**
 * A two-channel race: `buys` buyers check out one ticket each through our purchase (add to cart, then the
 * booking paid from the wallet) while another channel holds one seat `holds` times through the seller API and
 * confirms each hold it gets; all at once, on one listing of `tickets`. Answers what each channel sold and what
 * the database says: the stock is conserved (what is left plus what every live or sold hold and cart took is what
 * there was) and nothing was taken twice.
 */
export async function twoChannelRace(
  s: Server,
  opts: { tickets: number; buys: number; holds: number; spreadMs?: number },
) {
  const session = await s.loginAs('tickets4u@demo.test');
  const made = await call(s, 'POST', '/settings/api-tokens', session, {
    name: 'Two-channel race',
    scopes: ['listings'],
    expires_in_days: 1,
  });
  const token = (made.body.data as { token: string }).token;
  const listing = await makeListing(s.db, s.clock.now(), { tickets: opts.tickets });
  const buyers = await makeBuyers(s.db, opts.buys, s.clock.now());
  const buy = async (buyer: { token: string }): Promise<number> => {
    try {
      const booking = await book(s, buyer.token, listing, 1);
      const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', buyer.token, {
        booking_id: booking.booking_id,
        payment_method: 1,
      });
      return paid.status === 200 ? 1 : 0;
    } catch {
      return 0;
    }
  };
  const holdAndConfirm = async (): Promise<number> => {
    const held = await call(s, 'POST', '/my-listings/holds', token, {
      listing_id: listing.id,
      quantity: 1,
      minutes: 5,
    });
    if (held.status !== 200) return 0;
    const id = (held.body.data as { id: number }).id;
    const sold = await call(s, 'POST', `/my-listings/holds/${id}/confirm`, token);
    return sold.status === 200 ? 1 : 0;
  };
  const started = performance.now();
  const work = [...buyers.map((b) => () => buy(b)), ...Array.from({ length: opts.holds }, () => holdAndConfirm)];
  // interleaved, so that neither channel starts first
  for (let i = work.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [work[i], work[j]] = [work[j] as () => Promise<number>, work[i] as () => Promise<number>];
  }
  // each starts at a random moment of `spreadMs`: on SQLite a burst of one channel's transactions would otherwise
  // run before the other's reads (the connection serves a transaction group before a waiting read)
  const spread = opts.spreadMs ?? 1_000;
  const results = await Promise.all(
    work.map((run) => new Promise<number>((done) => setTimeout(() => done(run()), Math.random() * spread))),
  );
  const ms = performance.now() - started;
  const soldByUs = results.reduce((a, b) => a + b, 0);
  const left = (
    await s.db.selectFrom('listings').select('available').where('id', '=', listing.id).executeTakeFirstOrThrow()
  ).available;
  const carts = await s.db
    .selectFrom('carts')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
    .where('listing_id', '=', listing.id)
    .where('hold_state', '<>', 'released')
    .executeTakeFirstOrThrow();
  const holds = await s.db
    .selectFrom('listing_holds')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
    .where('listing_id', '=', listing.id)
    .where('state', 'in', ['holding', 'sold'])
    .executeTakeFirstOrThrow();
  const soldHere = await s.db
    .selectFrom('carts')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
    .where('listing_id', '=', listing.id)
    .where('hold_state', '=', 'sold')
    .executeTakeFirstOrThrow();
  const soldElsewhere = await s.db
    .selectFrom('listing_holds')
    .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
    .where('listing_id', '=', listing.id)
    .where('state', '=', 'sold')
    .executeTakeFirstOrThrow();
  const taken = Number(carts.n) + Number(holds.n);
  return {
    ms,
    left,
    taken,
    succeeded: soldByUs,
    soldHere: Number(soldHere.n),
    soldElsewhere: Number(soldElsewhere.n),
    /** Seats sold beyond the stock: 0 when no seat was sold twice. */
    oversold: Math.max(0, Number(soldHere.n) + Number(soldElsewhere.n) - opts.tickets),
    conserved: left >= 0 && left + taken === opts.tickets,
  };
}
