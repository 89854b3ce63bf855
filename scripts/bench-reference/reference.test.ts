import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addToCart, type CartInput, confirmBooking, createBooking } from './calls';
import { checkReference, connect, prepareReference, tokenHash } from './schema';
import { isPostgres, numbered } from './sql';
import { type Answer, openStore, type Store } from './store';

/** PostgreSQL too when DATABASE_URL names a server whose role may create databases (as test:pg's). */
const admin = process.env.DATABASE_URL?.trim();
const engines: [string, string | undefined][] = [
  ['SQLite', undefined],
  ...(admin && isPostgres(admin) ? [['PostgreSQL', admin] as [string, string]] : []),
];

async function onServer(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

// The yardstick must keep the product's rules, or it flatters: these show it does.
describe.each(engines)('the reference server of bench:purchase on %s', (_engine, adminUrl) => {
  let dir: string;
  let file: string;
  let database: string | undefined;
  let store: Store;
  let tokens: string[];
  let listing: { id: number; event_id: number };
  let keys = 0;

  // 3 tickets at 50.00 GBP; two buyers, each with 120.00 GBP (two tickets' worth: 56.00 each with the fees)
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-reference-test-'));
    file = join(dir, 'reference.sqlite');
    if (adminUrl) {
      database = `sbref_test_${process.pid}_${Date.now().toString(36)}`;
      await onServer(adminUrl, `CREATE DATABASE ${database}`);
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      file = url.toString();
    }
    const setup = await prepareReference(file, 2, 1, 3, 12_000);
    tokens = setup.tokens;
    listing = setup.listings[0] as { id: number; event_id: number };
    store = await openStore(file, 3);
  });
  afterEach(async () => {
    await store.close();
    if (adminUrl && database) await onServer(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (
    token: string,
    operation: string,
    work: Parameters<Store['call']>[0]['work'],
    key = `key-${++keys}`,
    requestHash = key,
  ) => store.call({ tokenHash: tokenHash(token), operation, key, requestHash, work });
  const body = (a: Answer) => JSON.parse(a.text) as { data: Record<string, unknown>; message?: string };
  const cartOf = (quantity = 1): CartInput => ({
    listingId: listing.id,
    matchId: listing.event_id,
    quantity,
    currency: 'GBP',
    method: 1,
  });
  const buy = async (token: string) => {
    const cart = await call(token, 'addToCart', (run, user, now) => addToCart(run, user, cartOf(), now));
    if (cart.status !== 200) return cart;
    const booking = await call(token, 'createBooking', (run, user, now) =>
      createBooking(
        run,
        user,
        { listingId: listing.id, cartId: body(cart).data.cart_id as number, method: 1, billing: { first_name: 'A' } },
        now,
      ),
    );
    return call(token, 'confirmBooking', (run, user, now) =>
      confirmBooking(run, user, body(booking).data.booking_id as number, store.escrow, now),
    );
  };
  const available = async () => {
    const c = await connect(file);
    try {
      return Number((await c.run.one('SELECT available FROM listings WHERE id = ?', [listing.id]))?.available);
    } finally {
      await c.close();
    }
  };

  it('sells a ticket: the stock, the wallet, the order and a balanced entry', async () => {
    const paid = await buy(tokens[0] as string);
    expect(paid.status).toBe(200);
    expect(body(paid).data.result).toMatchObject({ status: 1, booking_status: 'Success', reason: null });
    expect(await available()).toBe(2);
    expect(await checkReference(file)).toEqual({ oversold: 0, sold: 1, confirmed: 1, ledger: [] });
  });

  it('never sells more than the listing holds, even to calls that arrive together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(tokens[i % 2] as string, 'addToCart', (run, user, now) => addToCart(run, user, cartOf(), now)),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 409, 409]);
    expect(body(answers.find((a) => a.status === 409) as Answer).message).toBe(
      'These tickets are no longer available.',
    );
    expect(await available()).toBe(0);
    expect((await checkReference(file)).oversold).toBe(0);
  });

  it('answers a replayed key with the first answer and no second effect; another request under it is refused', async () => {
    const token = tokens[0] as string;
    const first = await call(token, 'addToCart', (run, user, now) => addToCart(run, user, cartOf(), now), 'same-key');
    const again = await call(token, 'addToCart', (run, user, now) => addToCart(run, user, cartOf(), now), 'same-key');
    expect(again).toEqual(first);
    expect(await available()).toBe(2);
    const other = await call(
      token,
      'addToCart',
      (run, user, now) => addToCart(run, user, cartOf(2), now),
      'same-key',
      'another request',
    );
    expect(other.status).toBe(422);
    expect(await available()).toBe(2);
  });

  it('refuses a payment the wallet cannot cover and changes nothing', async () => {
    const token = tokens[0] as string;
    expect(body(await buy(token)).data.result).toMatchObject({ booking_status: 'Success' });
    expect(body(await buy(token)).data.result).toMatchObject({ booking_status: 'Success' });
    // 120.00 - 2 x 56.00 leaves 8.00: the third ticket's 56.00 is refused
    const third = body(await buy(token)).data;
    expect(third.result).toMatchObject({ booking_status: 'Failed', reason: 'insufficient_funds' });
    expect(third.booking).toMatchObject({ status: 'pending' });
    expect(await checkReference(file)).toEqual({ oversold: 0, sold: 2, confirmed: 2, ledger: [] });
  });

  it('refuses a call without a known token', async () => {
    const answer = await call('not-a-token', 'addToCart', (run, user, now) => addToCart(run, user, cartOf(), now));
    expect(answer.status).toBe(401);
    expect(await available()).toBe(3);
  });
});

describe('numbered', () => {
  it("numbers the placeholders for PostgreSQL's protocol", () => {
    expect(numbered('UPDATE t SET a = ? WHERE id = ? AND b >= ?')).toBe(
      'UPDATE t SET a = $1 WHERE id = $2 AND b >= $3',
    );
  });
});
