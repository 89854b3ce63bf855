/**
 * bench:purchase: the purchase path (add-to-cart, inventory/buy, the SB Pay confirmation) of the product and of
 * a minimal reference server of the same three calls (scripts/bench-reference/), one after the other, each on
 * a fresh database, under the same closed loop of distinct buyers; then the checks (zero oversold, a balanced
 * ledger) and one last line that compares them. docs/measuring.md says what each figure is.
 *
 *   npm run bench:purchase -- [--duration=20] [--clients=50] [--only=product|reference|stub] [--with-stub]
 *                             [--processes=N (PostgreSQL)] [--warmup=2] [--listings=200]
 *   DATABASE_URL=postgres://... npm run bench:purchase    the same on PostgreSQL (a database of its own a server)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMicros, drive, type Plan, poolsFor } from './bench-purchase-load';
import { cpuBetween, type LockSamples, watchPostgres } from './bench-purchase-pg';
import {
  BALANCE,
  buildProduct,
  checkProduct,
  prepareProduct,
  type Servers,
  startProduct,
  stopProcess,
  TICKETS_PER_LISTING,
} from './bench-purchase-product';
import { errorsText, loadText, percentile, purchaseLine, type Side, sideText } from './bench-purchase-report';
import { checkReference, prepareReference } from './bench-reference/schema';
import { argOf, freePort, freshTarget, num, ROOT, startChild } from './bench-support';

type Kind = 'stub' | 'product' | 'reference';

const options = {
  seconds: num('duration', 20),
  warmUp: num('warmup', 2),
  clients: num('clients', 50),
  processes: num('processes', 1),
  listings: num('listings', 200),
  postgres: Boolean(process.env.DATABASE_URL?.trim()),
};
type Options = typeof options;

interface Checks {
  /** listings whose stock does not add up, plus tickets sold that no confirmed booking accounts for (or the reverse) */
  oversold: number;
  balanced: boolean;
  text: string;
}

interface Result {
  side: Side;
  checks?: Checks;
  postgres?: { deadlocks: number; lockWaitShare: number };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const thousands = (n: number) => Math.round(n).toLocaleString('en-GB');
const pad = (kind: string) => `  ${kind.padEnd(10)}`;

/** The reference or the stub in `processes` child processes, one port each. */
async function startChildren(kind: 'stub' | 'reference', target: string, processes: number): Promise<Servers> {
  const script = join(ROOT, `scripts/bench-reference/${kind === 'stub' ? 'stub' : 'server'}.ts`);
  const children: Awaited<ReturnType<typeof startChild>>[] = [];
  const origins: string[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopProcess));
  };
  try {
    for (let i = 0; i < processes; i++) {
      const port = await freePort();
      children.push(await startChild(script, [], { PORT: String(port), REFERENCE_TARGET: target }));
      origins.push(`http://127.0.0.1:${port}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origins, pids: children.map((c) => c.pid as number), stop };
}

/** Warm-up, then the measured closed loop, with the CPU of the client, the servers and (PostgreSQL) the database. */
async function measure(
  kind: Kind,
  servers: Servers,
  plan: Plan,
  o: Options,
  watch: Awaited<ReturnType<typeof watchPostgres>> | undefined,
) {
  const pools = poolsFor(servers.origins, o.clients);
  try {
    if (o.warmUp > 0) await drive(pools, plan, o.clients, o.warmUp);
    const load = loadavg();
    const client = process.cpuUsage();
    const server = servers.pids.map(cpuMicros);
    const database = await watch?.backendCpu();
    watch?.startSampling();
    const run = await drive(pools, plan, o.clients, o.seconds);
    const locks = watch?.stopSampling();
    const serverUs = servers.pids.reduce((sum, pid, i) => sum + cpuMicros(pid) - (server[i] as number), 0);
    const clientUsage = process.cpuUsage(client);
    const databaseUs = database && watch ? cpuBetween(database, await watch.backendCpu()) : undefined;
    const n = run.purchases.length;
    const side: Side = { rate: n / run.elapsed, p99: percentile(run.purchases, 99), cpuUs: serverUs / n };
    const core = (us: number) => `${((us / (run.elapsed * 1e6)) * 100).toFixed(0)}% of a core`;
    const clientUs = clientUsage.user + clientUsage.system;
    console.info(
      `${pad(kind)}${sideText(side)}: ${thousands(n)} purchases in ${run.elapsed.toFixed(1)} s (${thousands(run.calls)} calls), purchase p50 ${percentile(run.purchases, 50).toFixed(1)} ms p99 ${side.p99.toFixed(1)} ms; errors ${errorsText(run.errors)}`,
    );
    console.info(
      `${pad('')}server CPU ${(serverUs / n).toFixed(0)} us a purchase (${core(serverUs)}, ${servers.pids.length} process${servers.pids.length === 1 ? '' : 'es'}); client CPU ${(clientUs / n).toFixed(0)} us a purchase (${core(clientUs)}); load ${loadText(load)} -> ${loadText(loadavg())}`,
    );
    if (clientUs / (run.elapsed * 1e6) > 0.8) {
      console.info(`${pad('')}the load generator used ${core(clientUs)}: it may be what limits this run`);
    }
    return { side, locks, databaseUs: databaseUs === undefined ? undefined : databaseUs / n };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** One server from a fresh database to its checks. */
async function runOne(kind: Kind, o: Options): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), `sb-bench-purchase-${kind}-`));
  const fresh = kind === 'stub' ? { target: '', drop: async () => {} } : await freshTarget(dir, `sbbench_${kind}`);
  let servers: Servers | undefined;
  let watch: Awaited<ReturnType<typeof watchPostgres>> | undefined;
  try {
    let plan: Plan;
    let check: (() => Promise<Checks>) | undefined;
    if (kind === 'product') {
      const setup = await prepareProduct(fresh.target, o.clients, o.listings);
      plan = setup;
      check = async () => {
        const c = await checkProduct(fresh.target, setup);
        return verdictOf(c.oversold, c.sold, c.confirmed, c.ledger);
      };
    } else if (kind === 'reference') {
      const setup = await prepareReference(fresh.target, o.clients, o.listings, TICKETS_PER_LISTING, BALANCE);
      plan = { ...setup, countryId: 1 };
      check = async () => {
        const c = await checkReference(fresh.target);
        return verdictOf(c.oversold, c.sold, c.confirmed, c.ledger);
      };
    } else {
      plan = {
        tokens: Array.from({ length: o.clients }, (_, i) => `stub-${i}`),
        listings: [{ id: 1, event_id: 1 }],
        countryId: 1,
      };
    }
    if (o.postgres && kind !== 'stub') watch = await watchPostgres(fresh.target);
    const deadlocksBefore = await watch?.deadlocks();
    servers =
      kind === 'product'
        ? await startProduct(dir, fresh.target, o.processes)
        : await startChildren(kind, fresh.target, o.processes);
    const m = await measure(kind, servers, plan, o, watch);
    await servers.stop();
    servers = undefined;
    let postgres: Result['postgres'];
    if (watch && m.locks) {
      // a backend reports its deadlocks when it is idle a second, or at exit: the servers' pools have closed
      await sleep(1_500);
      const deadlocks = (await watch.deadlocks()) - (deadlocksBefore ?? 0);
      const share = m.locks.active === 0 ? 0 : m.locks.waiting / m.locks.active;
      postgres = { deadlocks, lockWaitShare: share };
      console.info(`${pad('')}PostgreSQL: ${postgresText(deadlocks, m.locks, m.databaseUs)}`);
    }
    const checks = await check?.();
    if (checks) console.info(`${pad('')}checks: ${checks.text}`);
    return { side: m.side, checks, postgres };
  } finally {
    await servers?.stop();
    await watch?.close();
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function verdictOf(oversold: number, sold: number, confirmed: number, ledger: string[]): Checks {
  return {
    oversold: oversold + Math.abs(sold - confirmed),
    balanced: ledger.length === 0,
    text: `oversold listings ${oversold}; sold ${thousands(sold)} tickets, confirmed ${thousands(confirmed)}: ${sold === confirmed ? 'the same' : 'NOT the same'}; ledger ${ledger.length === 0 ? 'balanced' : ledger.slice(0, 5).join('; ')}`,
  };
}

const postgresText = (deadlocks: number, l: LockSamples, databaseUs: number | undefined) =>
  `deadlocks ${deadlocks}; lock waits ${l.active === 0 ? 0 : ((l.waiting / l.active) * 100).toFixed(1)}% of ${thousands(l.active)} active backends seen in ${l.samples} samples; database CPU ${databaseUs === undefined ? '-' : databaseUs.toFixed(0)} us a purchase (its backends)`;

async function main() {
  const only = argOf('only');
  if (only !== undefined && !['product', 'reference', 'stub'].includes(only)) {
    console.error(`--only takes product, reference or stub, not "${only}"`);
    process.exit(2);
  }
  if (options.processes > 1 && !options.postgres) {
    console.error('--processes needs PostgreSQL (DATABASE_URL): the product serves SQLite from one process.');
    process.exit(2);
  }
  const kinds: Kind[] = only
    ? [only as Kind]
    : [...(process.argv.includes('--with-stub') ? (['stub'] as const) : []), 'product', 'reference'];
  const engine = options.postgres ? 'PostgreSQL' : 'SQLite';
  console.info(
    `bench:purchase on ${engine}: ${options.clients} clients in a closed loop, each a distinct buyer (add-to-cart, inventory/buy, SB Pay confirmation), ${options.seconds} s a server after ${options.warmUp} s of warm-up, ${options.processes} process${options.processes === 1 ? '' : 'es'} a server; node ${process.version}, ${availableParallelism()} cores, load ${loadText(loadavg())}`,
  );
  if (kinds.includes('product')) buildProduct();
  const results = new Map<Kind, Result>();
  for (const kind of kinds) results.set(kind, await runOne(kind, options));
  const stub = results.get('stub');
  const product = results.get('product');
  const reference = results.get('reference');
  if (stub) {
    const top = Math.max(product?.side.rate ?? 0, reference?.side.rate ?? 0);
    console.info(
      `stub: ${sideText(stub.side)} (the load generator's ceiling${top > 0 ? `; the fastest server is ${((top / stub.side.rate) * 100).toFixed(0)}% of it` : ''})`,
    );
  }
  if (!product && !reference) return;
  const checked = [product, reference].filter((r) => r?.checks) as Result[];
  const oversold = checked.reduce((sum, r) => sum + (r.checks as Checks).oversold, 0);
  const balanced = checked.every((r) => (r.checks as Checks).balanced);
  if (oversold > 0 || !balanced) process.exitCode = 1;
  console.info(
    purchaseLine(product?.side, reference?.side, {
      oversold,
      balanced,
      postgres: (product ?? reference)?.postgres,
    }),
  );
}

await main();
