import { serve } from '@hono/node-server';
import { createApp } from './app';
import { systemClock } from './clock';
import { readConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed } from './db/seed/index';
import { createLogger } from './logger';

/** Opens (creating if needed) the database, migrates it, seeds demo data and serves the SPA and the API. */
export async function startServer(overrides: Partial<ReturnType<typeof readConfig>> = {}) {
  const config = { ...readConfig(), ...overrides };
  const log = createLogger(config.logLevel);
  const db = openDatabase(config.databaseUrl ?? config.databaseFile);
  const applied = await migrateToLatest(db);
  const { createdUsers } = await seed(db, systemClock);
  const app = createApp({ db, clock: systemClock, log, staticDir: config.staticDir });
  const server = await new Promise<ReturnType<typeof serve>>((ready) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => ready(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.debug({ applied, createdUsers }, 'database ready');
  const close = async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await db.destroy();
  };
  return { config, port, close, applied, createdUsers };
}

/** A database URL as it may be printed: without its password. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres (unparsable DATABASE_URL)';
  }
}

/** Starts with the configuration from the environment and prints the address and the demo accounts. */
export async function serveAndAnnounce() {
  const { port, config, applied, createdUsers, close } = await startServer();
  const lines = [
    '',
    `SB Portal is running at http://localhost:${port}/`,
    `  database: ${config.databaseUrl ? redactUrl(config.databaseUrl) : config.databaseFile}${applied.length ? ` (migrated: ${applied.join(', ')})` : ''}`,
    createdUsers.length ? `  demo data created for ${createdUsers.length} accounts` : '  demo data already present',
    '',
    `Demo accounts (password for all: ${DEMO_PASSWORD})`,
    ...DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(22)} ${a.role}`),
    '',
  ];
  console.info(lines.join('\n'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0));
    });
  }
}
