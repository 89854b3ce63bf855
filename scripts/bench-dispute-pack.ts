import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshTarget, num, SALES_BENCH_LAYOUT, seedSellerOrders } from './bench-support';

/**
 * npm run bench:dispute-pack: a fresh database (SQLite, or Postgres with DATABASE_URL) whose demo seller has
 * --orders (default 100,000) more orders, each of its newest --packs (default 20) given a delivery, its proof, log
 * rows and a claim; then the dispute pack of each is built as the server builds it (server/domain/disputes/pack.ts)
 * and timed. Target: every pack under 2 s.
 */
async function main() {
  const orders = num('orders', 100_000);
  const packs = num('packs', 20);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pack-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_pack');
  try {
    console.info(`bench:dispute-pack on ${engine}: preparing ${orders} orders of the demo seller...`);
    const { db, sellerId } = await seedSellerOrders(target, orders, SALES_BENCH_LAYOUT);
    const { disputePack } = await import('../server/domain/disputes/pack');
    const now = new Date();
    const at = now.toISOString();
    const chosen = await db
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('seller_id', '=', sellerId)
      .orderBy('id', 'desc')
      .limit(packs)
      .execute();
    const buyer = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'rival@demo.test')
      .executeTakeFirstOrThrow();
    for (const o of chosen) {
      await db
        .insertInto('order_deliveries')
        .values({
          order_id: o.id,
          ticket_no: 1,
          type: 'courier',
          courier: 'DHL',
          tracking_number: `B${o.id}`,
          user_id: sellerId,
          delivered_at: at,
        })
        .onConflict((oc) => oc.columns(['order_id', 'ticket_no']).doNothing())
        .execute();
      await db
        .insertInto('delivery_proofs')
        .values({
          order_id: o.id,
          kind: 'courier',
          ticket_nos: '1',
          file_id: null,
          sha256: null,
          pages: null,
          reference: `DHL B${o.id}`,
          user_id: sellerId,
          recorded_at: at,
        })
        .execute();
      for (const action of ['accepted', 'ticket_delivered', 'delivered', 'claim_opened'] as const) {
        await db
          .insertInto('order_logs')
          .values({
            order_id: o.id,
            action,
            from_status: o.status,
            to_status: o.status,
            reason: null,
            detail: null,
            actor: 'seller',
            user_id: sellerId,
            created_at: at,
          })
          .execute();
      }
      await db
        .insertInto('order_disputes')
        .values({
          order_id: o.id,
          buyer_id: buyer.id,
          seller_id: sellerId,
          reason: 'not_received',
          description: 'bench',
          status: 'open',
          opened_at: at,
          resolved_at: null,
          resolved_by: null,
          resolution_note: null,
        })
        .onConflict((oc) => oc.column('order_id').doNothing())
        .execute();
    }
    const times: number[] = [];
    for (const o of chosen) {
      const start = performance.now();
      const pack = await disputePack(db, sellerId, o.id, now);
      times.push(performance.now() - start);
      if (pack.size < 100) throw new Error('the pack is empty');
    }
    times.sort((a, b) => a - b);
    const total = Number(
      (
        await db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('seller_id', '=', sellerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.info(
      `bench:dispute-pack on ${engine}: the demo seller has ${total} orders; ${times.length} packs built: median ${times[Math.floor(times.length / 2)]?.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms (target < 2000 ms); load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    await db.destroy();
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
