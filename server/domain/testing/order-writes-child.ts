import { createInterface } from 'node:readline';
import { openDatabase } from '../../db/database';
import type { OrderStatus } from '../../db/schema';
import { changeOrderStatus, type NewOrder, recordOrder } from '../sales/totals';

/**
 * A second (third...) process writing orders on one database, for server/domain/sales.test.ts: opens
 * DB_TARGET, says `ready`, waits for a line `go` on stdin so that every process starts at once, then runs
 * every write of the JSON plan in WRITES at the same time and prints the results as one JSON line.
 */
type Plan =
  | { kind: 'record'; order: NewOrder }
  | { kind: 'change'; orderId: number; from: OrderStatus; to: OrderStatus; at: string };

const target = process.env.DB_TARGET;
if (!target) throw new Error('DB_TARGET is required');
const plan = JSON.parse(process.env.WRITES ?? '[]') as Plan[];
const db = openDatabase(target, { poolSize: 4 });
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  const results = await Promise.all(
    plan.map(async (w) => {
      try {
        if (w.kind === 'record') return { ok: await recordOrder(db, w.order) };
        return { ok: await changeOrderStatus(db, w) };
      } catch (error) {
        return { error: String(error) };
      }
    }),
  );
  process.stdout.write(`${JSON.stringify(results)}\n`);
  break;
}
lines.close();
await db.destroy();
