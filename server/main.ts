import type { Server } from 'node:http';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from './app';
import { systemClock } from './clock';
import { type Config, readConfig, StartupError } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed } from './db/seed/index';
import { statisticsTask } from './db/statistics';
import { matchAlerts } from './domain/alerts/matcher';
import { ALERT_SWEEP_MS } from './domain/alerts/rules';
import { sendDueReports } from './domain/report-schedules';
import { registerPrune, startHousekeeping } from './housekeeping';
import { sweepOrphanUploads } from './http/multipart';
import { createLogger } from './logger';
import { mailerFrom } from './mail';
import { scheduleBackups } from './ops/backup-run';
import { type AskKind, answerAsked, type WorkerAnswer } from './ops/cluster-ipc';
import { type OpsConfig, readOpsConfig } from './ops/config';
import { createMetrics, localMetrics } from './ops/metrics';
import { createReadiness } from './ops/readiness';
import { workerSystem } from './routes/ops';

/**
 * A slow or silent client is let go instead of holding a socket for Node's default five minutes: its headers
 * within 15 s, its whole request (a 10 MB proof on a slow line included) within 2 minutes, an idle keep-alive
 * connection after 5 s; the limits are checked every 2 s (Node's default is every 30 s).
 */
export const SOCKET_LIMITS = {
  headersTimeout: 15_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 2_000,
} as const;

type FetchHandler = (request: Request, env: unknown) => Response | Promise<Response>;

/** What a request gets in the seconds between taking the port and having the database ready. */
const starting: FetchHandler = () =>
  Response.json(
    { success: false, message: 'The server is starting. Try again in a moment.' },
    { status: 503, headers: { 'Retry-After': '1', 'Cache-Control': 'no-store' } },
  );

/** Listens, or says in one line why it cannot (the port is taken, or not ours to take). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(
          new StartupError(
            `Port ${port} on ${host} is already in use (another SB Portal?). Stop it, or choose another port: PORT=${port + 1} npm start`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(new StartupError(`Port ${port} on ${host} is not ours to use (EACCES). Choose a port above 1023.`));
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(new StartupError(`HOST ${host} is not an address of this machine (${error.code}).`));
      } else {
        reject(error);
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export interface StartOptions {
  /** The operator's settings over those of the environment. */
  ops?: Partial<OpsConfig>;
  /** In a cluster: this worker's number, and how it asks the other workers (server/ops/cluster.ts). */
  worker?: number;
  peers?: (kind: AskKind) => Promise<WorkerAnswer[]>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Takes the port first (so that a port in use is said before any database is created), then opens (creating
 * if needed), migrates and seeds the database, starts housekeeping and serves the SPA and the API.
 *
 * `shutdown()` stops it as a balancer needs: readiness answers 503 at once, the port stays open for
 * `SHUTDOWN_DELAY_SECONDS` (the balancer's notice), then closes; requests in flight finish (idle connections are
 * closed at once, the rest after `SHUTDOWN_TIMEOUT_SECONDS` at most), then housekeeping stops and the database
 * closes.
 */
export async function startServer(overrides: Partial<Config> = {}, options: StartOptions = {}) {
  const config = { ...readConfig(), ...overrides };
  const ops = { ...readOpsConfig(), ...options.ops };
  const log = createLogger(config.logLevel, config.logFormat);
  let handler: FetchHandler = starting;
  const server = createAdaptorServer({
    fetch: (request: Request, env: unknown) => handler(request, env),
    serverOptions: SOCKET_LIMITS,
  }) as Server;
  // one process takes the port first, to say at once that it is in use; a worker of a cluster only once it can
  // serve, since the cluster hands connections to every worker that listens
  const inCluster = options.worker !== undefined;
  if (!inCluster) await listen(server, config.port, config.host);
  const closeServer = () =>
    new Promise<void>((done) => {
      // requests in flight finish; a connection still busy after the timeout is cut
      const cut = setTimeout(() => server.closeAllConnections(), ops.shutdownTimeoutMs);
      cut.unref();
      server.close(() => {
        clearTimeout(cut);
        done();
      });
      server.closeIdleConnections();
    });

  let db: ReturnType<typeof openDatabase> | undefined;
  // the housekeeping tasks that hold this server's own things, taken away again when it closes
  const unregister: Array<() => void> = [];
  try {
    db = openDatabase(config.databaseUrl ?? config.databaseFile);
    const applied = await migrateToLatest(db);
    const { createdUsers } = await seed(db, systemClock);
    const uploads = join(config.dataDir, 'uploads');
    const mailer = mailerFrom(process.env, systemClock, log);
    unregister.push(
      registerPrune('orphan uploads', (database, now) => sweepOrphanUploads(database, uploads, now)),
      registerPrune('scheduled reports', (database, now) => sendDueReports(database, mailer, now, log)),
      registerPrune('planner statistics', statisticsTask()),
      registerPrune('seat alerts', (database, now) => matchAlerts(database, mailer, now), { everyMs: ALERT_SWEEP_MS }),
    );
    const housekeeping = startHousekeeping(db, systemClock, log);
    const backups = ops.backup.intervalMinutes
      ? scheduleBackups(
          db,
          { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
          { ...ops.backup, intervalMinutes: ops.backup.intervalMinutes },
          systemClock,
          log,
        )
      : null;
    const listening = server.address();
    const boundPort = typeof listening === 'object' && listening ? listening.port : config.port;
    const readiness = createReadiness({
      db,
      dataDir: config.dataDir,
      databaseFile: config.databaseUrl ? null : config.databaseFile,
      minFreeBytes: ops.minFreeBytes,
      worker: options.worker ?? null,
    });
    const metrics = createMetrics();
    if (options.worker !== undefined) {
      answerAsked('readiness', () => readiness.check());
      answerAsked('metrics', () => localMetrics(metrics));
      answerAsked('system', async () => workerSystem(metrics));
    }
    const app = createApp({
      ...mailSettings(process.env, config.host, boundPort),
      db,
      clock: systemClock,
      log,
      mailer,
      staticDir: config.staticDir,
      dataDir: config.dataDir,
      trustProxy: config.trustProxy,
      validateResponses: config.validateResponses,
      answerCache: config.answerCache ? undefined : null,
      ops: { readiness, metrics, peers: options.peers, metricsToken: ops.metricsToken },
      sharedAnswers: config.sharedAnswers,
    });
    handler = (request, env) => app.fetch(request, env as never);
    if (inCluster) await listen(server, config.port, config.host);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.debug({ applied, createdUsers }, 'database ready');
    const openDb = db;
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        await closeServer();
        await housekeeping.stop();
        await backups?.stop();
        for (const take of unregister) take();
        await openDb.destroy();
      })();
      return closing;
    };
    const shutdown = async () => {
      readiness.drain();
      log.info({ delayMs: ops.shutdownDelayMs }, 'shutting down: readiness is red, the port closes after the delay');
      if (ops.shutdownDelayMs > 0) await sleep(ops.shutdownDelayMs);
      await close();
    };
    // db: the open database, for a process that serves a second app beside this one (e2e/server.ts)
    return { config, port, close, shutdown, applied, createdUsers, db: openDb };
  } catch (error) {
    for (const take of unregister) take();
    await closeServer();
    await db?.destroy();
    throw error;
  }
}

const loopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/**
 * Where links in mail point (`APP_URL`, default this server's own address) and whether the development mail
 * viewer (/dev/mail) is served: only while mail goes to the outbox (no `SMTP_URL`) and, unless `MAIL_VIEWER=on`
 * says otherwise, only while the server listens on this machine alone (whoever reads the outbox can follow
 * anyone's reset link). `MAIL_VIEWER=off` turns it off.
 */
export function mailSettings(env: NodeJS.ProcessEnv, host: string, port: number) {
  const shown = everywhere.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const viewer = (env.MAIL_VIEWER ?? '').trim().toLowerCase();
  return {
    appUrl: env.APP_URL?.trim() || `http://${shown}:${port}`,
    mailViewer: !env.SMTP_URL?.trim() && viewer !== 'off' && (viewer === 'on' || loopback(host)),
  };
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

const everywhere = new Set(['0.0.0.0', '::', '']);

/** Starts with the configuration from the environment and prints the address and the demo accounts. */
export async function serveAndAnnounce() {
  let started: Awaited<ReturnType<typeof startServer>>;
  try {
    started = await startServer();
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(`SB Portal did not start: ${error.message}`);
    process.exit(1);
  }
  const { port, config, applied, createdUsers, shutdown } = started;
  console.info(banner({ port, config, applied, createdUsers }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void shutdown().then(() => process.exit(0));
    });
  }
}

/** What `npm start` prints once it serves (under 30 lines): the address, the demo accounts, the mail, then the database. */
export function banner({
  port,
  config,
  applied,
  createdUsers,
  workers,
}: {
  port: number;
  config: Config;
  applied: string[];
  createdUsers: unknown[];
  workers?: number;
}): string {
  const shownHost = everywhere.has(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  const mail = process.env.SMTP_URL?.trim()
    ? 'Mail: sent through SMTP_URL'
    : mailSettings(process.env, config.host, port).mailViewer
      ? `Mail: kept in the outbox, read it at http://${shownHost}:${port}/dev/mail (no SMTP_URL set)`
      : 'Mail: kept in the outbox (no SMTP_URL set; the mail viewer is off)';
  // the address, the accounts and the mail first: what a newcomer needs; the rest after, one line each
  const lines = [
    '',
    `SB Portal is running at http://${shownHost}:${port}/${workers ? ` (${workers} worker processes)` : ''}`,
    '',
    `Demo accounts (password for all: ${DEMO_PASSWORD})`,
    ...DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(22)} ${a.role}`),
    '',
    mail,
    `Database: ${config.databaseUrl ? redactUrl(config.databaseUrl) : config.databaseFile}${
      applied.length ? ` (${applied.length} migrations applied, up to ${applied.at(-1)})` : ''
    }; ${createdUsers.length ? `demo data created for ${createdUsers.length} accounts` : 'demo data already present'}`,
    everywhere.has(config.host)
      ? `Listening on every interface (HOST=${config.host}): other machines can reach it`
      : `Listening on ${config.host} only (set HOST=0.0.0.0 to open it to other machines)`,
    '',
  ];
  return lines.join('\n');
}
