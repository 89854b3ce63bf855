/**
 * `npm run bench:flood`: how the real server holds up under a login flood.
 *
 * Starts the server (server/cli/start.ts, as `npm start` does, with the built SPA when dist/ exists) on a fresh
 * SQLite database in a temporary folder, then for each scenario measures the p99 latency of GET / (or
 * /api/health without a SPA), of /api/health and of an authenticated call, idle and during 200 logins for
 * made-up addresses sent 100 at a time, and prints their ratio (target: within 3x) and the server's peak RSS
 * (VmHWM of /proc/<pid>/status; target: under 400 MiB).
 *
 * Scenarios:
 *   one client    every login from the same address: the per-client limit answers most of them at once
 *   many clients  every login from its own address (through a trusted proxy, TRUST_PROXY=1): a botnet, where
 *                 only the bounded hashing pool stands between the flood and the rest of the site
 *
 * A script, not a test: timings depend on the machine. Options: --connections=1 (probe connections per URL),
 * --idle-seconds=5.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
};
const CONNECTIONS = arg('connections', 1);
const IDLE_SECONDS = arg('idle-seconds', 5);
const FLOOD_TOTAL = 200;
const FLOOD_PARALLEL = 100;
const DEMO = { email: 'seller@demo.test', password: 'Demo1234!' };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

async function startChild(dataDir: string, port: number, staticDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      TRUST_PROXY: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('SB Portal is running')) ready();
    });
    child.once('exit', (code) => fail(new Error(`the server exited (${code}) before it was ready:\n${out}`)));
  });
  child.stdout?.resume();
  return child;
}

/** Peak resident memory of a process in MiB, and a way to restart the peak (Linux ≥ 4.0, our own process). */
const peakRssMiB = (pid: number) => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
};
const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

interface Probe {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Keeps `CONNECTIONS` requests on each probe URL going until `stop` resolves; answers each URL's p99 in
 * microseconds, from each response's own time (autocannon's histogram keeps whole milliseconds: a fast page's
 * p99 read 0 ms idle and under the flood, and the ratio of the two was 0/0).
 */
async function measure(probes: Probe[], until: Promise<unknown>) {
  const times = probes.map(() => [] as number[]);
  const runs = probes.map((p, i) =>
    autocannon({
      url: p.url,
      headers: p.headers,
      connections: CONNECTIONS,
      duration: 3600,
      timeout: 120,
      setupClient: (client: {
        on(event: 'response', listener: (status: number, bytes: number, ms: number) => void): void;
      }) => client.on('response', (_status, _bytes, ms) => times[i]?.push(ms)),
    } as autocannon.Options),
  );
  await until;
  for (const run of runs) (run as unknown as { stop(): void }).stop();
  const results = await Promise.all(runs);
  return Object.fromEntries(
    probes.map((p, i) => {
      const r = results[i] as autocannon.Result;
      return [
        p.name,
        { p99: p99Micros(times[i] ?? []), requests: r.requests.total, non2xx: r.non2xx, errors: r.errors },
      ];
    }),
  );
}

async function login(base: string, email: string, password: string, forwardedFor: string) {
  const started = performance.now();
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data?: { token: string } };
  return { status: res.status, ms: performance.now() - started, token: body.data?.token };
}

/** 200 logins for made-up addresses, 100 in flight at a time; answers the count of each status. */
async function flood(base: string, label: string, clientOf: (i: number) => string) {
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: FLOOD_PARALLEL }, async () => {
      while (next < FLOOD_TOTAL) {
        const i = next++;
        const { status } = await login(base, `flood-${label}-${i}@example.test`, 'not-the-password', clientOf(i));
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

/** The 99th percentile of response times in milliseconds (fractions kept), in whole microseconds. */
function p99Micros(ms: number[]): number {
  if (ms.length === 0) return Number.NaN;
  const sorted = [...ms].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] as number) * 1000);
}

const fmt = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`;
const fmtMicros = (us: number) => `${us.toFixed(0).padStart(8)} µs`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-portal-flood-'));
  const dist = resolve(ROOT, 'dist');
  const hasSpa = existsSync(join(dist, 'index.html'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  console.info(`Starting the server on ${base} (${hasSpa ? 'with the built SPA' : 'API only: no dist/'})...`);
  const child = await startChild(dataDir, port, hasSpa ? dist : join(dataDir, 'no-spa'));
  const pid = child.pid ?? 0;
  try {
    const { token } = await login(base, DEMO.email, DEMO.password, '192.0.2.200');
    if (!token) throw new Error('could not log in as the demo seller');
    const probes: Probe[] = [
      ...(hasSpa ? [{ name: 'GET /', url: `${base}/` }] : []),
      { name: 'GET /api/health', url: `${base}/api/health` },
      {
        name: 'GET /api/settings/my-account (authenticated)',
        url: `${base}/api/settings/my-account`,
        headers: { authorization: `Bearer ${token}` },
      },
    ];
    const idleLogin = await login(base, 'member@demo.test', DEMO.password, '192.0.2.202');
    const canReset = resetPeak(pid);
    const idle = await measure(probes, new Promise((done) => setTimeout(done, IDLE_SECONDS * 1000)));
    console.info(
      `\nIdle (${IDLE_SECONDS} s, ${CONNECTIONS} connections per URL), peak RSS ${peakRssMiB(pid).toFixed(0)} MiB`,
    );
    for (const [name, r] of Object.entries(idle))
      console.info(`  ${name.padEnd(46)} p99 ${fmtMicros(r.p99)}  (${r.requests} requests)`);
    console.info(`  a real login: ${idleLogin.status} in ${fmt(idleLogin.ms).trim()}`);

    const scenarios: Array<[string, (i: number) => string]> = [
      ['one client', () => '203.0.113.1'],
      ['many clients', (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`],
    ];
    let worst = 0;
    let peak = 0;
    for (const [label, clientOf] of scenarios) {
      if (canReset) resetPeak(pid);
      const floodRun = flood(base, label.replace(' ', '-'), clientOf);
      // a real user logging in while the flood is on (from an address of their own)
      const realLogin = new Promise((done) => setTimeout(done, 200)).then(() =>
        login(base, 'member@demo.test', DEMO.password, '192.0.2.201'),
      );
      const during = await measure(probes, floodRun);
      const { statuses, seconds } = await floodRun;
      const real = await realLogin;
      const rss = peakRssMiB(pid);
      peak = Math.max(peak, rss);
      console.info(
        `\nFlood, ${label}: ${FLOOD_TOTAL} logins for made-up addresses, ${FLOOD_PARALLEL} at a time, took ${seconds.toFixed(1)} s`,
      );
      console.info(
        `  answers: ${Object.entries(statuses)
          .map(([s, n]) => `${n} x ${s}`)
          .join(', ')}; a real login meanwhile: ${real.status} in ${fmt(real.ms).trim()}`,
      );
      console.info(`  peak RSS ${rss.toFixed(0)} MiB${canReset ? ' (during this flood)' : ' (since start)'}`);
      for (const [name, r] of Object.entries(during)) {
        const ratio = r.p99 / Math.max(1, idle[name]?.p99 ?? 1);
        worst = Math.max(worst, ratio);
        console.info(
          `  ${name.padEnd(46)} p99 ${fmtMicros(r.p99)}  idle ${fmtMicros(idle[name]?.p99 ?? Number.NaN)}  ratio ${ratio.toFixed(2)}x  (${r.requests} requests${r.non2xx ? `, ${r.non2xx} not 2xx` : ''}${r.errors ? `, ${r.errors} errors` : ''})`,
        );
      }
    }
    console.info(
      `\nWorst p99 ratio ${worst.toFixed(2)}x (target within 3x: ${worst <= 3 ? 'met' : 'MISSED'}); peak RSS ${peak.toFixed(0)} MiB (target under 400 MiB: ${peak < 400 ? 'met' : 'MISSED'})`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
