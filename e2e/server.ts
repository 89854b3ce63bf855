import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from '../server/main';

// The real server, on a database that exists only for this run, serving the e2e build.
const dataDir = mkdtempSync(join(tmpdir(), 'sb-portal-e2e-'));
const { close } = await startServer({
  port: Number(process.env.E2E_PORT ?? 4178),
  host: '127.0.0.1',
  dataDir,
  databaseFile: join(dataDir, 'portal.sqlite'),
  // the browser tests run on a SQLite file of their own, even where DATABASE_URL points at a Postgres server
  databaseUrl: null,
  staticDir: resolve('dist-e2e'),
  logLevel: process.env.LOG_LEVEL ?? 'warn',
  // an answer off the contract fails the browser tests as a 500
  validateResponses: true,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
