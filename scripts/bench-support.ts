/**
 * What the benchmark scripts (bench-api, bench-purchase, bench-search) share: their options, the real server in
 * a child process of their own, a free port and a fresh database.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** `--name=value` on the command line. */
export const argOf = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
export const num = (name: string, fallback: number) => Number(argOf(name) ?? fallback);

/**
 * In the child: the real server, started the way `npm start` starts it (the environment carries its
 * configuration); tells the parent when it listens and closes on SIGTERM. `beside` runs first (bench-api
 * answers its CPU-time questions).
 */
export async function serveReal(beside?: () => void) {
  const { startServer } = await import('../server/main');
  const started = await startServer();
  beside?.();
  process.send?.('ready');
  process.once('SIGTERM', () => {
    void started.close().then(() => process.exit(0));
  });
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Forks `script` (the benchmark itself, serving) with `args`; resolves once it says it is ready. */
export function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<ChildProcess> {
  const child = fork(script, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // BENCH_CPU_PROF=<dir> writes the server's CPU profile there when it stops (open it in Chrome's DevTools)
    execArgv: [
      '--import',
      'tsx',
      ...execArgv,
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((ready, fail) => {
    child.once('message', () => ready(child));
    child.once('exit', (code) => fail(new Error(`a bench server exited (${code}) before it was ready`)));
  });
}

/**
 * The real server in a child (`script` serving with `--serve=real`) on a free port, over `target` (a SQLite
 * file in `dir`, or the Postgres database of freshTarget), with production logging and no response checks.
 */
export async function startRealServer(script: string, dir: string, target: string, logLevel = 'info') {
  const port = await freePort();
  const child = await startChild(script, ['--serve=real'], {
    PORT: String(port),
    DATA_DIR: dir,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: target } : {}),
    LOG_LEVEL: logLevel,
    LOG_FORMAT: 'json',
    VALIDATE_RESPONSES: '0',
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/**
 * A fresh database for the real server: a file in `dir`, or a new database (named `<prefix>_<time>`) on the
 * DATABASE_URL server, dropped by `drop`.
 */
export async function freshTarget(dir: string, prefix: string) {
  const adminUrl = process.env.DATABASE_URL?.trim();
  if (!adminUrl) return { target: join(dir, 'portal.sqlite'), drop: async () => {} };
  const { openDatabase } = await import('../server/db/database');
  const { sql } = await import('kysely');
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = openDatabase(adminUrl, { poolSize: 1 });
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: url.toString(),
    drop: async () => {
      const again = openDatabase(adminUrl, { poolSize: 1 });
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(again);
      await again.destroy();
    },
  };
}
