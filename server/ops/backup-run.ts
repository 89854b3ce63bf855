import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import { type BackupSource, backup, type Manifest } from './backup';
import { claimRun, recordRun } from './jobs';

/** Backs up into `out` and records the result on `db` (the live database): the back office shows the last good one. */
export async function backupAndRecord(db: Db, source: BackupSource, out: string, clock: Clock): Promise<Manifest> {
  try {
    const manifest = await backup(source, out, clock.now());
    await recordRun(db, 'backup', clock.now(), {
      ok: true,
      detail: { file: out, bytes: statSync(out).size, schema: manifest.schema.latest, files: manifest.files.length },
    });
    return manifest;
  } catch (error) {
    await recordRun(db, 'backup', clock.now(), { ok: false, error: (error as Error).message }).catch(() => {});
    throw error;
  }
}

const SCHEDULED = /^sb-portal-\d{8}-\d{6}\.tar\.gz$/;
const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/**
 * `BACKUP_INTERVAL_MINUTES`: a backup into BACKUP_DIR at start and every interval, once across the processes on
 * the database (the run is claimed as housekeeping's is), keeping the last BACKUP_KEEP scheduled ones. A failed
 * backup is logged at error and recorded (the System page shows it). The timer keeps no process alive.
 */
export function scheduleBackups(
  db: Db,
  source: BackupSource,
  settings: { intervalMinutes: number; keep: number; dir: string },
  clock: Clock,
  log: Logger,
) {
  const everyMs = settings.intervalMinutes * 60_000;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = (async () => {
      if (!(await claimRun(db, 'backup', clock.now(), everyMs))) return;
      const out = join(settings.dir, `sb-portal-${stamp(clock.now())}.tar.gz`);
      const started = Date.now();
      const manifest = await backupAndRecord(db, source, out, clock);
      log.info({ file: out, files: manifest.files.length, ms: Date.now() - started }, 'scheduled backup done');
      const kept = readdirSync(settings.dir)
        .filter((name) => SCHEDULED.test(name))
        .sort();
      for (const old of kept.slice(0, Math.max(0, kept.length - settings.keep))) rmSync(join(settings.dir, old));
    })()
      .catch((err) => log.error({ err }, 'scheduled backup failed'))
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    settled: () => running,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
