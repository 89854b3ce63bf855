/**
 * bench:purchase on PostgreSQL: what the database says about a run. Its deadlocks (pg_stat_database, before
 * and after), the share of its active backends that wait on a lock (pg_stat_activity sampled every 100 ms),
 * and the CPU time of its backends (the database's share of a purchase), all for the run's own database.
 */
import pg from 'pg';
import { cpuMicros } from './bench-purchase-load';

export interface LockSamples {
  samples: number;
  active: number;
  waiting: number;
}

export async function watchPostgres(target: string) {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  const backends = async () =>
    (
      await client.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
      )
    ).rows.map((r: { pid: number }) => r.pid);
  let sampling: NodeJS.Timeout | undefined;
  let inFlight = false;
  const locks: LockSamples = { samples: 0, active: 0, waiting: 0 };
  return {
    /** Deadlocks counted in the database so far (read after the servers have stopped: a backend reports at exit). */
    async deadlocks(): Promise<number> {
      await client.query('SELECT pg_stat_clear_snapshot()');
      const r = await client.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()');
      return Number(r.rows[0]?.deadlocks ?? 0);
    },
    /** Every 100 ms, the active backends of the database and those of them waiting on a lock. */
    startSampling() {
      sampling = setInterval(() => {
        if (inFlight) return;
        inFlight = true;
        client
          .query(
            `SELECT count(*) FILTER (WHERE state = 'active') AS active,
                    count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock') AS waiting
             FROM pg_stat_activity
             WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
          )
          .then((r) => {
            locks.samples += 1;
            locks.active += Number(r.rows[0]?.active ?? 0);
            locks.waiting += Number(r.rows[0]?.waiting ?? 0);
          })
          .catch(() => {})
          .finally(() => {
            inFlight = false;
          });
      }, 100);
    },
    stopSampling(): LockSamples {
      clearInterval(sampling);
      return { ...locks };
    },
    /** The CPU time of the database's backends now, µs by process id (the bench's own connection left out). */
    async backendCpu(): Promise<Map<number, number>> {
      return new Map((await backends()).map((pid) => [pid, cpuMicros(pid)]));
    },
    close: () => client.end(),
  };
}

/** The CPU the backends used between two readings (a backend that began in between counts from zero). */
export function cpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, us] of after) total += us - (before.get(pid) ?? 0);
  return total;
}
