import { mkdirSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { MIGRATION_NAMES } from '../db/migrate';

export type CheckName = 'database' | 'migrations' | 'disk' | 'shutdown';

export interface ReadinessCheck {
  name: CheckName;
  ok: boolean;
  detail: string;
}

/** One process's answer: ready when every check is. */
export interface ProcessReadiness {
  /** The cluster's number for the worker (a restarted worker gets a new one); null for a single process. */
  worker: number | null;
  ready: boolean;
  checks: ReadinessCheck[];
}

export interface ReadinessOptions {
  db: Db;
  /** Uploads go under `<dataDir>/uploads`: the disk that must have room. */
  dataDir: string;
  /** The SQLite file the database was opened from: it must still be the file at that path. */
  databaseFile?: string | null;
  /** Free space the uploads' disk must keep (default 200 MiB). */
  minFreeBytes?: number;
  /** How long the database may take to answer (default 2 s). */
  timeoutMs?: number;
  /** The cluster's number for this worker, when it is one. */
  worker?: number | null;
  /** How long an answer is kept (default a second; the tests keep none). */
  keepMs?: number;
}

export const DEFAULT_MIN_FREE_BYTES = 200 * 1024 * 1024;

class TimedOut extends Error {}

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimedOut(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

const reason = (error: unknown) =>
  error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) || error.name : String(error);

const mib = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MiB`;

/**
 * Whether this process should be sent work: the database answers a query, every migration of this code is
 * applied (a newer version's extra migrations are fine: they are written to run beside this one), the uploads'
 * disk has room, and the process is not shutting down. On SQLite the file at the database's path must still be
 * the one the process opened: a file moved or deleted under a running server takes every later write nowhere.
 * Answers are kept for a second, so that a balancer's probes (or a flood of them) cost one query a second.
 */
export function createReadiness(options: ReadinessOptions) {
  const uploads = join(options.dataDir, 'uploads');
  const minFree = options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const file = options.databaseFile ?? null;
  const opened = file ? statSync(file, { throwIfNoEntry: false }) : undefined;
  let draining = false;
  let kept: { at: number; checks: Promise<ReadinessCheck[]> } | null = null;

  async function database(): Promise<ReadinessCheck[]> {
    try {
      if (file && opened) {
        const now = statSync(file, { throwIfNoEntry: false });
        if (!now || now.ino !== opened.ino || now.dev !== opened.dev) {
          return [
            { name: 'database', ok: false, detail: `the database file ${file} is not the one this process opened` },
            { name: 'migrations', ok: false, detail: 'not checked' },
          ];
        }
      }
      const rows = await within(
        timeoutMs,
        sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(options.db),
      );
      const applied = new Set(rows.rows.map((r) => r.name));
      const missing = MIGRATION_NAMES.filter((name) => !applied.has(name));
      return [
        { name: 'database', ok: true, detail: 'answers' },
        missing.length === 0
          ? { name: 'migrations', ok: true, detail: `${MIGRATION_NAMES.length} applied` }
          : { name: 'migrations', ok: false, detail: `not applied: ${missing.join(', ')}` },
      ];
    } catch (error) {
      return [
        { name: 'database', ok: false, detail: `does not answer: ${reason(error)}` },
        { name: 'migrations', ok: false, detail: 'not checked' },
      ];
    }
  }

  async function disk(): Promise<ReadinessCheck> {
    try {
      mkdirSync(uploads, { recursive: true });
      const s = await statfs(uploads);
      const free = s.bavail * s.bsize;
      return free >= minFree
        ? { name: 'disk', ok: true, detail: `${mib(free)} free for uploads` }
        : { name: 'disk', ok: false, detail: `${mib(free)} free for uploads, under ${mib(minFree)}` };
    } catch (error) {
      return { name: 'disk', ok: false, detail: `uploads folder unusable: ${reason(error)}` };
    }
  }

  return {
    /** From now on this process answers not ready: it is shutting down. */
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async check(): Promise<ProcessReadiness> {
      const now = Date.now();
      if (!kept || now - kept.at >= (options.keepMs ?? 1_000)) {
        kept = { at: now, checks: Promise.all([database(), disk()]).then(([d, k]) => [...d, k]) };
      }
      const checks = [
        ...(await kept.checks),
        draining
          ? ({ name: 'shutdown', ok: false, detail: 'shutting down' } as const)
          : ({ name: 'shutdown', ok: true, detail: 'serving' } as const),
      ];
      return { worker: options.worker ?? null, ready: checks.every((c) => c.ok), checks };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
