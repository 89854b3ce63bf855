/**
 * `npm run bench:api`: the API's per-request overhead, and the dashboard at a seller's scale.
 *
 * One run starts, one after the other, each in a process of its own:
 *   bare   a bare Hono app on @hono/node-server: `GET /json` answers a constant (`/json-headers` the same with the
 *          headers every answer of the real server carries), `GET /row/:id` reads one row by
 *          primary key through a prepared better-sqlite3 statement (and `GET /pgrow/:id` through pg when
 *          DATABASE_URL is set). What the machine gives a do-nothing app.
 *   real   the real server as `npm start` runs it (server/main.ts startServer: production settings, responses
 *          not checked against the contract, pino logging at LOG_LEVEL as JSON lines to a discarded stdout), on
 *          a fresh temporary database (SQLite, or a fresh database on the DATABASE_URL server), migrated and
 *          seeded.
 * and measures each URL with autocannon at `--connections` (50) for `--duration` seconds after a warm-up:
 * requests/s, p50, p99, and the real server's ratio to its bare counterpart.
 *
 * Phase 1 (overhead): /api/health against /json; authenticated reads (my-account, the sales overview) against
 *   /row/:id. Targets: an authenticated read at least 40% of the bare row lookup, p99 under 20 ms.
 * Phase 2 (scale): the demo seller's orders multiplied to `--orders` (100,000), over `--events` events, and its
 *   notifications and activity to `--feed` rows each, written straight into the database in bulk; then every
 *   dashboard call, the menu's counts and the notification pages. Target: p99 under 50 ms for each.
 *
 * Options: --duration=10 --warmup=2 --connections=50 --rounds=3 (phase 1: bare and real take turns; medians)
 *          --only=<part of a name> (phase 1: only the URLs whose name has it) --orders=100000 --events=400 --feed=100000
 *          --phase=all|overhead|scale  --log-level=info  --profile (writes .cpuprofile files of the real
 *          server under ./.bench-profiles and prints where its time went); --summarize=<file.cpuprofile>
 *          prints that summary of a profile written before
 * A script, not a test: timings depend on the machine (and on whatever else it runs).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { argOf, drained, freePort, freshTarget, num, ROOT, serveReal, startChild, stopChild } from './bench-support';

const SELF = import.meta.filename;
const flag = (name: string) => process.argv.includes(`--${name}`);

const DEMO = { email: 'seller@demo.test', password: 'Demo1234!' };

// ---------------------------------------------------------------------------------------------------------
// children

/** The CPU time a server process spent, on request: steadier than requests/s on a machine others share. */
function answerCpuUsage() {
  process.on('message', (m) => {
    if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
}

/** The bare app: the least a Hono server on this machine can do per request. */
async function serveBare(port: number, sqliteFile: string, pgUrl: string | undefined) {
  const { serve } = await import('@hono/node-server');
  const { Hono } = await import('hono');
  const SQLite = (await import('better-sqlite3')).default;
  const sqlite = new SQLite(sqliteFile, { readonly: true });
  const byId = sqlite.prepare(
    'SELECT id, email, first_name, last_name, user_type, kyc_status, currency, created_at FROM users WHERE id = ?',
  );
  const { API_SECURITY_HEADERS } = await import('../server/http/security-headers');
  const { randomUUID } = await import('node:crypto');
  const app = new Hono();
  app.get('/json', (c) => c.json({ success: true, message: 'ok' }));
  // the same constant with the headers every answer of the real server carries (security, request id, cache)
  app.get('/json-headers', (c) => {
    c.header('X-Request-Id', randomUUID());
    for (const [name, value] of API_SECURITY_HEADERS) c.header(name, value);
    c.header('Cache-Control', 'no-store');
    return c.json({ success: true, message: 'ok' });
  });
  app.get('/row/:id', (c) => {
    const row = byId.get(Number(c.req.param('id')));
    return row ? c.json({ success: true, data: row }) : c.json({ success: false }, 404);
  });
  if (pgUrl) {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
    app.get('/pgrow/:id', async (c) => {
      const { rows } = await pool.query({
        name: 'row',
        text: 'SELECT id, email, first_name, last_name, user_type, kyc_status, currency, created_at FROM users WHERE id = $1',
        values: [Number(c.req.param('id'))],
      });
      return rows[0] ? c.json({ success: true, data: rows[0] }) : c.json({ success: false }, 404);
    });
  }
  answerCpuUsage();
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => process.send?.('ready'));
}

// ---------------------------------------------------------------------------------------------------------
// the parent

interface Figures {
  /** the server's CPU time per request answered, in µs (user and system) */
  cpuPerRequest: number;
  /** requests answered in the measured seconds */
  count: number;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

/** Microseconds of CPU (user and system) the process has spent. */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((done) => {
    const listen = (m: unknown) => {
      const cpu = (m as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      child.off('message', listen);
      done(cpu.user + cpu.system);
    };
    child.on('message', listen);
    child.send('cpu');
  });
}

async function measure(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  server?: ChildProcess,
): Promise<Figures> {
  const autocannon = (await import('autocannon')).default;
  const run = (duration: number) =>
    autocannon({ url, headers, connections, duration, timeout: 30 }) as unknown as Promise<{
      requests: { average: number; total: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
      timeouts: number;
    }>;
  await run(num('warmup', 2));
  const cpuBefore = server ? await cpuOf(server) : 0;
  const r = await run(seconds);
  const cpu = server ? (await cpuOf(server)) - cpuBefore : Number.NaN;
  return {
    cpuPerRequest: r.requests.total ? cpu / r.requests.total : Number.NaN,
    count: r.requests.total,
    rps: r.requests.total / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

const fmtFigures = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(7)} req/s  ${Number.isNaN(f.cpuPerRequest) ? '' : `${f.cpuPerRequest.toFixed(0).padStart(5)} µs CPU/req`}  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99
    .toFixed(1)
    .padStart(6)} ms${f.bad ? `  (${f.bad} failed or not 2xx)` : ''}${f.count === 0 ? '  (none answered)' : ''}`;

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  const body = (await res.json()) as { data?: { token: string } };
  if (!body.data) throw new Error(`could not log in as ${DEMO.email}: ${res.status}`);
  return body.data.token;
}

/** Migrates and seeds the database as the first start would (the real server's start then finds it ready). */
async function prepare(target: string) {
  const { openDatabase } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const db = openDatabase(target);
  await migrateToLatest(db);
  await seed(db, systemClock);
  const { id } = await db.selectFrom('users').select('id').where('email', '=', DEMO.email).executeTakeFirstOrThrow();
  await db.destroy();
  return id;
}

async function multiply(target: string, orders: number, events: number, feed: number) {
  const { openDatabase } = await import('../server/db/database');
  const { multiplyDemoSeller } = await import('./bench-api-data');
  const db = openDatabase(target);
  try {
    return await multiplyDemoSeller(db, DEMO.email, { orders, events, feed });
  } finally {
    await db.destroy();
  }
}

/**
 * Where the profiled server spent its busy time (idle left out): by package (self time), and by function
 * including what it called (each sample counted once per function on its stack).
 */
function summarizeProfile(file: string) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: {
      id: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
      children?: number[];
    }[];
    samples: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const packageOf = (url: string) =>
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
    (url.includes('/server/')
      ? `server/${url.split('/server/')[1]}`
      : url.startsWith('node:')
        ? url
        : url || '(native)');
  const keyOf = (id: number) => {
    const { functionName, url, lineNumber } = nodes.get(id)?.callFrame ?? { functionName: '?', url: '', lineNumber: 0 };
    return `${functionName || '(anonymous)'} ${packageOf(url)}:${lineNumber + 1}`;
  };
  const selfByPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const node = nodes.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    busy++;
    const pkg = packageOf(node.callFrame.url);
    const group = pkg.startsWith('server/') ? 'server (ours)' : pkg;
    selfByPackage.set(group, (selfByPackage.get(group) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(at));
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `    ${((v / Math.max(1, busy)) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  console.info(`  share of busy time, self, by package:\n${top(selfByPackage, 14)}`);
  console.info(`  share of busy time, inclusive, by function:\n${top(inclusive, 45)}`);
}

async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const phase = argOf('phase') ?? 'all';
  const rounds = num('rounds', 3);
  const logLevel = argOf('log-level') ?? 'info';
  const profile = flag('profile');
  const dir = mkdtempSync(join(tmpdir(), 'sb-portal-bench-api-'));
  const profileDir = resolve(ROOT, '.bench-profiles');
  const runId = Date.now().toString(36);
  const { target, drop } = await freshTarget(dir, 'sbbench');
  const engine = target.startsWith('postgres') ? 'postgres' : 'sqlite';
  console.info(
    `bench:api on ${engine}, ${connections} connections, ${seconds} s per URL after a ${num('warmup', 2)} s warm-up, LOG_LEVEL=${logLevel}`,
  );
  const children: ChildProcess[] = [];
  const realEnv = async () => ({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: engine === 'postgres' ? target : '',
    STATIC_DIR: join(dir, 'no-spa'),
    LOG_LEVEL: logLevel,
    LOG_FORMAT: 'json',
    NODE_ENV: 'production',
  });
  const startReal = async (label: string) => {
    const env = await realEnv();
    // one folder per run: tsx's loader thread writes a profile of its own beside the main thread's
    const execArgv = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `real-${label}-${runId}`)}`] : [];
    const child = await startChild(SELF, ['--serve=real'], env, execArgv);
    children.push(child);
    return { child, base: `http://127.0.0.1:${env.PORT}` };
  };
  const finishReal = async (child: ChildProcess, label: string) => {
    await stopChild(child);
    if (!profile) return;
    const folder = join(profileDir, `real-${label}-${runId}`);
    // the main thread's profile is the largest
    const file = readdirSync(folder)
      .map((name) => ({ name, size: statSync(join(folder, name)).size }))
      .sort((a, b) => b.size - a.size)[0]?.name;
    if (!file) return;
    console.info(`\nProfile of the real server (${label}): ${join(folder, file)}`);
    summarizeProfile(join(folder, file));
  };

  try {
    const sellerId = await prepare(target);
    const results: Record<string, Figures> = {};
    const run = async (name: string, url: string, headers: Record<string, string>, server: ChildProcess) => {
      const f = await measure(url, headers, seconds, connections, server);
      results[name] = f;
      console.info(`  ${name.padEnd(44)} ${fmtFigures(f)}`);
      return f;
    };
    const ratio = (a: string, b: string) => {
      const x = results[a];
      const y = results[b];
      if (!x || !y) return;
      const r = x.rps / y.rps;
      const cpu = y.cpuPerRequest / x.cpuPerRequest;
      console.info(
        `  ${`${a} / ${b}`.padEnd(76)} ${(r * 100).toFixed(0).padStart(4)}% of its requests/s, ${(cpu * 100).toFixed(0).padStart(4)}% by CPU per request`,
      );
    };

    if (phase === 'all' || phase === 'overhead') {
      const barePort = await freePort();
      const sqliteFile = engine === 'sqlite' ? target : join(dir, 'bare.sqlite');
      if (engine === 'postgres') {
        // the bare SQLite row needs a users table of its own
        const SQLite = (await import('better-sqlite3')).default;
        const file = new SQLite(sqliteFile);
        file.exec(
          'CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, first_name TEXT, last_name TEXT, user_type TEXT, kyc_status INTEGER, currency TEXT, created_at TEXT)',
        );
        file
          .prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(sellerId, DEMO.email, 'Sam', 'Seller', 'sellers', 1, 'GBP', new Date().toISOString());
        file.close();
      }
      console.info(
        `\nPhase 1: per-request overhead (demo seed); ${rounds} rounds, bare and real taking turns, medians shown`,
      );
      const bare = await startChild(
        SELF,
        [`--serve=bare`, `--port=${barePort}`, `--sqlite=${sqliteFile}`],
        engine === 'postgres' ? { PG_URL: target } : {},
      );
      children.push(bare);
      const bareBase = `http://127.0.0.1:${barePort}`;
      const { child, base } = await startReal('overhead');
      const auth = { authorization: `Bearer ${await login(base)}` };
      const row = engine === 'postgres' ? 'bare GET /pgrow/:id (pg)' : 'bare GET /row/:id (better-sqlite3)';
      const pairs: [string, string, Record<string, string>][] = [
        ['bare GET /json', `${bareBase}/json`, {}],
        ['bare GET /json-headers (the real headers)', `${bareBase}/json-headers`, {}],
        ['real GET /api/health', `${base}/api/health`, {}],
        [row, `${bareBase}/${engine === 'postgres' ? 'pgrow' : 'row'}/${sellerId}`, {}],
        ['real GET /api/settings/my-account', `${base}/api/settings/my-account`, auth],
        ['real GET /api/dashboard/sales-overview', `${base}/api/dashboard/sales-overview`, auth],
      ];
      const samples = new Map<string, Figures[]>();
      const only = argOf('only');
      const chosen = pairs.filter(([name]) => !only || name.includes(only));
      for (let round = 1; round <= rounds; round++) {
        for (const [name, url, headers] of chosen) {
          const f = await measure(url, headers, seconds, connections, name.startsWith('real') ? child : bare);
          samples.set(name, [...(samples.get(name) ?? []), f]);
          if (rounds > 1) console.info(`  round ${round}: ${name.padEnd(44)} ${fmtFigures(f)}`);
        }
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
      if (rounds > 1) console.info('');
      for (const [name] of chosen) {
        const list = samples.get(name) ?? [];
        const f: Figures = {
          cpuPerRequest: median(list.map((x) => x.cpuPerRequest)),
          count: median(list.map((x) => x.count)),
          rps: median(list.map((x) => x.rps)),
          p50: median(list.map((x) => x.p50)),
          p99: median(list.map((x) => x.p99)),
          bad: list.reduce((n, x) => n + x.bad, 0),
        };
        results[name] = f;
        console.info(`  ${name.padEnd(44)} ${fmtFigures(f)}`);
      }
      await stopChild(bare);
      await finishReal(child, 'overhead');

      console.info(
        "\n  ratios to the bare app (targets: authenticated reads at least 40% of the row lookup); by CPU: the bare app's CPU per request over the real one's, the steadier figure on a shared machine",
      );
      ratio('real GET /api/health', 'bare GET /json');
      ratio('bare GET /json-headers (the real headers)', 'bare GET /json');
      ratio('real GET /api/settings/my-account', row);
      ratio('real GET /api/dashboard/sales-overview', row);
      for (const name of ['real GET /api/settings/my-account', 'real GET /api/dashboard/sales-overview']) {
        const p99 = results[name]?.p99 ?? Number.NaN;
        console.info(
          `  ${name.padEnd(44)} p99 ${p99.toFixed(1)} ms (target under 20 ms: ${p99 < 20 ? 'met' : 'MISSED'})`,
        );
      }
    }

    if (phase === 'all' || phase === 'scale') {
      const orders = num('orders', 100_000);
      const events = num('events', 400);
      const feed = num('feed', 100_000);
      const started = performance.now();
      const made = await multiply(target, orders, events, feed);
      console.info(
        `\nPhase 2: the demo seller at scale: ${made.orders} orders over ${made.events} events, ${made.notifications} notifications, ${made.activity} activity rows (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
      const { child, base } = await startReal('scale');
      const auth = { authorization: `Bearer ${await login(base)}` };
      const paths = [
        '/api/dashboard/sales-overview',
        '/api/dashboard/awaiting-delivery',
        '/api/dashboard/top-selling-events',
        '/api/dashboard/notifications',
        '/api/dashboard/activity',
        '/api/sales/sales-count',
        '/api/ui-settings/menu-notification',
        '/api/notification/history?page=1',
        '/api/notification/activity-history?page=1',
        ...made.deepPages,
      ];
      let worst = 0;
      for (const path of paths) {
        const f = await run(`real GET ${path}`, `${base}${path}`, auth, child);
        // a deep page asked for by number is read by skipping rows (OFFSET): shown beside its cursor twin, for
        // comparison, and left out of the target (its cursor twin serves the same rows)
        if (!/[?&]page=\d{4,}/.test(path)) worst = Math.max(worst, f.p99);
        // requests still queued from a URL the server could not keep up with must not slow the next one down
        await drained(base);
      }
      await finishReal(child, 'scale');
      console.info(
        `\n  worst p99 ${worst.toFixed(1)} ms, deep pages by number left out (target under 50 ms: ${worst < 50 ? 'met' : 'MISSED'})`,
      );
    }
  } finally {
    for (const child of children) await stopChild(child);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const serving = argOf('serve');
if (serving === 'bare') await serveBare(num('port', 0), argOf('sqlite') ?? '', process.env.PG_URL);
else if (serving === 'real') await serveReal(answerCpuUsage);
else if (argOf('summarize')) summarizeProfile(argOf('summarize') ?? '');
else await main();
