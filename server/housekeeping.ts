import { pruneThrottle } from './auth/throttle';
import type { Clock } from './clock';
import type { Db } from './db/database';
import { pruneIdempotencyKeys } from './db/idempotency';
import type { Logger } from './logger';

/** Deletes the rows of one kind that have expired by `now`; answers how many it deleted. */
export type PruneTask = (db: Db, now: Date) => Promise<number>;

const tasks = new Map<string, PruneTask>();

/**
 * Adds a prune task to the ones housekeeping runs (at start and every few minutes). Tasks must be safe to run
 * in several processes at once (a conditional DELETE is), since every server process runs them. Registering a
 * name again replaces its task. Answers a function that takes the task away again (if it is still this one):
 * a server that closes takes away the tasks that hold its own things (its uploads folder, its mailer), and a
 * test its own tasks, since the registry lives as long as the process (the node tests share one per worker).
 */
export function registerPrune(name: string, task: PruneTask): () => void {
  tasks.set(name, task);
  return () => {
    if (tasks.get(name) === task) tasks.delete(name);
  };
}

export function registeredPrunes(): string[] {
  return [...tasks.keys()];
}

registerPrune('login throttle', pruneThrottle);
registerPrune('idempotency keys', pruneIdempotencyKeys);

/**
 * Runs every registered task once. A task that fails is logged and the others still run. Answers how many rows
 * each task deleted (a failed task is absent).
 */
export async function runHousekeeping(db: Db, clock: Clock, log?: Logger): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const [name, task] of tasks) {
    try {
      deleted[name] = await task(db, clock.now());
    } catch (err) {
      log?.warn({ err, task: name }, 'housekeeping task failed');
    }
  }
  const total = Object.values(deleted).reduce((a, b) => a + b, 0);
  if (total > 0) log?.debug({ deleted }, 'housekeeping');
  return deleted;
}

export const HOUSEKEEPING_INTERVAL_MS = 5 * 60_000;

export interface Housekeeping {
  /** Resolves when the run started at start-up (or the one in progress) is over. */
  settled(): Promise<void>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs housekeeping now and then every `intervalMs`, on a timer that does not keep the process alive. A run
 * is skipped while the previous one is still going.
 */
export function startHousekeeping(
  db: Db,
  clock: Clock,
  log?: Logger,
  intervalMs = HOUSEKEEPING_INTERVAL_MS,
): Housekeeping {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = runHousekeeping(db, clock, log)
      .then(() => undefined)
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    settled: () => running,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
