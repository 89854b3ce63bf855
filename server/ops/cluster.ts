import cluster, { type Worker } from 'node:cluster';
import { systemClock } from '../clock';
import { readConfig, StartupError } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { seed } from '../db/seed/index';
import { banner, startServer } from '../main';
import { askWorkers, onShutdown, relayQuestions, shutDownWorkers, tellServing } from './cluster-ipc';
import { readOpsConfig, SQLITE_WORKERS_MESSAGE } from './config';

/**
 * When a worker dies: a replacement after a delay that doubles with each death in the window (0.5 s, 1 s,
 * 2 s... at most 15 s), and no replacement at all once more than `maxDeaths` died within `windowMs`: a worker
 * that dies as it starts (a broken configuration, a database refusing it) would otherwise restart for ever.
 */
export function restartPolicy({ maxDeaths = 5, windowMs = 60_000, firstDelayMs = 500, maxDelayMs = 15_000 } = {}) {
  const deaths: number[] = [];
  return {
    /** A worker died at `now`: how long to wait before its replacement, or null to give up. */
    died(now: number): number | null {
      deaths.push(now);
      while (deaths.length > 0 && (deaths[0] as number) <= now - windowMs) deaths.shift();
      if (deaths.length > maxDeaths) return null;
      return Math.min(maxDelayMs, firstDelayMs * 2 ** (deaths.length - 1));
    },
    get recent() {
      return deaths.length;
    },
  };
}

const say = (line: string) => console.info(`[primary ${process.pid}] ${line}`);
const shout = (line: string) => console.error(`[primary ${process.pid}] ${line}`);

/**
 * `WORKERS=N npm start`: the primary process. It refuses SQLite (one process only), migrates and seeds the
 * database once before any worker serves (on PostgreSQL the migrations hold an advisory lock, so primaries of
 * several machines starting together migrate once too), then forks N workers that share the port (Node's
 * cluster hands each new connection to the next worker). A worker that dies is replaced after a back-off;
 * deaths in a loop stop the whole server with exit code 1. SIGTERM or SIGINT shuts the workers down as one
 * server does (readiness red, the port closed, requests in flight finished) and exits 0 once they have.
 */
export async function runPrimary(workers: number): Promise<void> {
  const config = readConfig();
  const ops = readOpsConfig();
  if (!config.databaseUrl) throw new StartupError(SQLITE_WORKERS_MESSAGE(workers));

  const db = openDatabase(config.databaseUrl, { poolSize: 1 });
  let applied: string[];
  let createdUsers: unknown[];
  try {
    applied = await migrateToLatest(db);
    ({ createdUsers } = await seed(db, systemClock));
  } finally {
    await db.destroy();
  }

  const policy = restartPolicy();
  let stopping = false;
  let announced = false;
  const serving = new Set<number>();

  const fork = () => cluster.fork({ SB_WORKERS: String(workers) });
  relayQuestions({
    serving(worker: Worker, port: number) {
      serving.add(worker.id);
      if (!announced && serving.size >= workers) {
        announced = true;
        console.info(banner({ port, config, applied, createdUsers, workers }));
      } else if (announced) say(`worker ${worker.id} (pid ${worker.process.pid}) serves`);
    },
  });

  cluster.on('exit', (worker, code, signal) => {
    serving.delete(worker.id);
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const delay = policy.died(Date.now());
    if (delay === null) {
      shout(
        `worker ${worker.id} (pid ${worker.process.pid}) died (${how}): ${policy.recent} workers died within a minute, a crash loop. Giving up: stopping every worker.`,
      );
      stopping = true;
      shutDownWorkers();
      setTimeout(() => process.exit(1), ops.shutdownTimeoutMs).unref();
      cluster.on('exit', () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      });
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    shout(`worker ${worker.id} (pid ${worker.process.pid}) died (${how}); a new one starts in ${delay} ms`);
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      say(`${signal}: shutting the workers down (requests in flight finish)`);
      shutDownWorkers();
      const done = () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) {
          say('every worker has stopped');
          process.exit(0);
        }
      };
      cluster.on('exit', done);
      done();
      // a worker that does not stop in time is killed
      setTimeout(
        () => {
          for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
        },
        ops.shutdownDelayMs + ops.shutdownTimeoutMs + 5_000,
      ).unref();
    });
  }

  for (let i = 0; i < workers; i++) fork();
}

/** A worker of `WORKERS=N`: one server, which answers the other workers' questions and stops when told. */
export async function serveWorker(): Promise<void> {
  const worker = cluster.worker?.id ?? 0;
  const started = await startServer({}, { worker, peers: askWorkers });
  tellServing(started.port);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void started.shutdown().then(() => process.exit(0));
  };
  onShutdown(stop);
  // a terminal's Ctrl-C reaches every process of the group: the primary says the same a moment later
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
