import { resolve } from 'node:path';
import { StartupError } from '../config';
import { DEFAULT_MIN_FREE_BYTES } from './readiness';

/** The operator's settings: processes, shutdown, readiness, metrics and backups. Every one has a default. */
export interface OpsConfig {
  /** `WORKERS`: server processes on the port (PostgreSQL only above 1). */
  workers: number;
  /** `SHUTDOWN_DELAY_SECONDS`: how long readiness answers red before the port closes (a balancer's notice). */
  shutdownDelayMs: number;
  /** `SHUTDOWN_TIMEOUT_SECONDS`: how long requests in flight may take to finish once the port is closed. */
  shutdownTimeoutMs: number;
  /** `MIN_FREE_DISK_MB`: readiness turns red when the uploads' disk has less free. */
  minFreeBytes: number;
  /** `METRICS_TOKEN`: a bearer token that may read /api/metrics besides the back office's. */
  metricsToken: string | null;
  backup: {
    /** `BACKUP_INTERVAL_MINUTES`: a backup every so often; none scheduled when absent. */
    intervalMinutes: number | null;
    /** `BACKUP_KEEP`: how many scheduled backups are kept (the oldest go). */
    keep: number;
    /** `BACKUP_DIR`: where scheduled backups go. */
    dir: string;
  };
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new StartupError(`${name} must be a whole number from ${min} to ${max}, not "${env[name]}"`);
  }
  return value;
}

export function readOpsConfig(env: NodeJS.ProcessEnv = process.env): OpsConfig {
  const interval = env.BACKUP_INTERVAL_MINUTES?.trim() ? whole(env, 'BACKUP_INTERVAL_MINUTES', 0, 1, 10_080) : null;
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    workers: whole(env, 'WORKERS', 1, 1, 64),
    shutdownDelayMs: whole(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 300) * 1000,
    shutdownTimeoutMs: whole(env, 'SHUTDOWN_TIMEOUT_SECONDS', 30, 1, 600) * 1000,
    minFreeBytes: whole(env, 'MIN_FREE_DISK_MB', DEFAULT_MIN_FREE_BYTES / 1024 / 1024, 0, 10_000_000) * 1024 * 1024,
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    backup: {
      intervalMinutes: interval,
      keep: whole(env, 'BACKUP_KEEP', 7, 1, 1000),
      dir: resolve(env.BACKUP_DIR?.trim() || resolve(dataDir, '..', 'backups')),
    },
  };
}

/** The one line that refuses several processes on the embedded database. */
export const SQLITE_WORKERS_MESSAGE = (workers: number) =>
  `WORKERS=${workers} needs PostgreSQL: SQLite serves one process. Set DATABASE_URL=postgres://... or leave WORKERS unset.`;
