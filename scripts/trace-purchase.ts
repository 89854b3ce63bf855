/**
 * The statements one purchase runs (add-to-cart, inventory/buy, the SB Pay confirmation), on SQLite, in order:
 * `node --import tsx scripts/trace-purchase.ts`. A tool for reading the purchase path, not a test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { prepareProduct } from './bench-purchase-product';

const dir = mkdtempSync(join(tmpdir(), 'trace-purchase-'));
const file = join(dir, 'trace.sqlite');
const setup = await prepareProduct(file, 2, 4);
const probe = new SQLite(':memory:');
const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
let trace: string[] | null = null;
for (const name of ['run', 'all', 'get', 'iterate']) {
  const original = proto[name] as (...a: unknown[]) => unknown;
  proto[name] = function (this: { source: string }, ...args: unknown[]) {
    trace?.push(this.source.replace(/\s+/g, ' ').slice(0, 160));
    return original.apply(this, args);
  };
}
const { openDatabase } = await import('../server/db/database');
const { createApp } = await import('../server/app');
const { systemClock } = await import('../server/clock');
const { createLogger } = await import('../server/logger');
const db = openDatabase(file);
const app = createApp({ db, clock: systemClock, log: createLogger('silent'), dataDir: dir, validateResponses: false });
let seq = 0;
const post = async (path: string, token: string, body?: unknown) => {
  const res = await app.request(`/api${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'idempotency-key': `trace-key-${++seq}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { data: Record<string, unknown> } };
};
async function purchase(listing: { id: number; event_id: number }, token: string, calls: string[][]) {
  trace = [];
  const cart = await post(
    `/purchase/lmt-trade/add-to-cart?currrency=GBP&client_country=IN&lang=en&match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1&payment_method=1`,
    token,
  );
  if (cart.status !== 200) throw new Error(`add-to-cart ${cart.status} ${JSON.stringify(cart.json)}`);
  calls.push(trace);
  trace = [];
  const booking = await post(`/purchase/lmt-trade/inventory/buy/${listing.id}`, token, {
    cart_id: cart.json.data.cart_id,
    lang: 'en',
    client_country: 'IN',
    payment_method: 1,
    first_name: 'Bench',
    last_name: 'Buyer',
    email: 'buyer@bench.test',
    address: '1 Bench Road',
    country: setup.countryId,
    postal_code: 'B1 1AA',
  });
  calls.push(trace);
  trace = [];
  const paid = await post('/purchase/lmt-trade/confirmation', token, {
    booking_id: booking.json.data.booking_id,
    payment_method: 1,
  });
  calls.push(trace);
  trace = null;
  if (paid.status !== 200) throw new Error(`confirmation ${paid.status} ${JSON.stringify(paid.json)}`);
}
const token = setup.tokens[0] as string;
for (let i = 0; i < 3; i++) await purchase(setup.listings[i % setup.listings.length] as never, token, []);
const calls: string[][] = [];
await purchase(setup.listings[3] as never, token, calls);
const names = ['add-to-cart', 'inventory/buy', 'confirmation'];
let total = 0;
calls.forEach((c, i) => {
  console.info(`--- ${names[i]}: ${c.length} statements`);
  for (const s of c) console.info(`  ${s}`);
  total += c.length;
});
console.info(`total ${total} statements a purchase`);
await db.destroy();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
