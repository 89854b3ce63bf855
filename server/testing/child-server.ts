import { serve } from '@hono/node-server';
import { createApp } from '../app';
import { systemClock } from '../clock';
import { openDatabase } from '../db/database';
import { createLogger } from '../logger';

/**
 * A server process for the tests that need more than one (several processes on one database): serves the API
 * of the database named by DB_TARGET (a SQLite file or a postgres:// URL, already migrated and seeded) on a
 * free port, and prints `listening <port>` once it does.
 */
const target = process.env.DB_TARGET;
if (!target) throw new Error('DB_TARGET is required');
const db = openDatabase(target, { poolSize: 4 });
const app = createApp({ db, clock: systemClock, log: createLogger('silent') });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening ${info.port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void db.destroy().then(() => process.exit(0));
});
