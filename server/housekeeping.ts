import { pruneThrottle } from './auth/throttle';
import type { Clock } from './clock';
import type { Db } from './db/database';
import { pruneIdempotencyKeys } from './db/idempotency';
import type { Logger } from './logger';
import { claimRun } from './ops/jobs';

/** Deletes the rows of one kind that have expired by `now`; answers how many it deleted. */
export type PruneTask = (db: Db, now: Date) => Promise<number>;

/** The `ops_jobs` rows of the tasks' runs are named by this and the task's name. */
export const HOUSEKEEPING_JOB = 'housekeeping: ';

/**
 * How often a task runs unless it asks otherwise, and how often the housekeeping looks for tasks due (every 15 s:
 * the seat alerts promise a buyer hears of a match within a minute; a look claims nothing not due).
 */
export const PRUNE_EVERY_MS = 5 * 60_000;
export const HOUSEKEEPING_TICK_MS = 15_000;

interface Registered {
  task: PruneTask;
  everyMs: number;
}

const tasks = new Map<string, Registered>();

/**
 * Adds a prune task to the ones housekeeping runs (at start, then every `everyMs`, five minutes unless given;
 * the housekeeping looks every 15 seconds). One process of those on the database runs each period's run of a task
 * (startHousekeeping claims it), but tasks must still be safe to run in several processes at once (a conditional
 * DELETE is): `runHousekeeping` claims nothing. Registering a name again replaces its task. Answers a function
 * that takes the task away again (if it is still this one): a server that closes takes away the tasks that hold
 * its own things (its uploads folder, its mailer), and a test its own tasks, since the registry lives as long as
 * the process (the node tests share one per worker).
 */
export function registerPrune(name: string, task: PruneTask, options: { everyMs?: number } = {}): () => void {
  const registered = { task, everyMs: options.everyMs ?? PRUNE_EVERY_MS };
  tasks.set(name, registered);
  return () => {
    if (tasks.get(name) === registered) tasks.delete(name);
  };
}

export function registeredPrunes(): string[] {
  return [...tasks.keys()];
}

/** How often a registered task runs, in milliseconds (undefined when none has that name). */
export const pruneEveryMs = (name: string): number | undefined => tasks.get(name)?.everyMs;

registerPrune('login throttle', pruneThrottle);
registerPrune('idempotency keys', pruneIdempotencyKeys);

/**
 * Runs every registered task once (or those `due` says). A task that fails is logged and the others still run.
 * Answers how many rows each task deleted (a failed task is absent).
 */
export async function runHousekeeping(
  db: Db,
  clock: Clock,
  log?: Logger,
  due: (name: string, everyMs: number) => boolean | Promise<boolean> = () => true,
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const [name, { task, everyMs }] of tasks) {
    if (!(await due(name, everyMs))) continue;
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

export interface Housekeeping {
  /** Resolves when the run started at start-up (or the one in progress) is over. */
  settled(): Promise<void>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs every task now, then looks every `tickMs` (a timer that does not keep the process alive) and runs the
 * tasks whose own period has passed since they last ran. "Last ran" is the database's: each task's run is
 * claimed by one conditional update of its row in `ops_jobs` (server/ops/jobs.ts), so of several processes on
 * the database one runs each period's, and a paused process does not run a backlog. A tick is skipped while
 * the previous run is still going.
 */
export function startHousekeeping(db: Db, clock: Clock, log?: Logger, tickMs = HOUSEKEEPING_TICK_MS): Housekeeping {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    const now = clock.now();
    const due = (name: string, everyMs: number) =>
      claimRun(db, `${HOUSEKEEPING_JOB}${name}`, now, everyMs).catch((err) => {
        log?.warn({ err, task: name }, 'housekeeping could not claim its run');
        return false;
      });
    running = runHousekeeping(db, clock, log, due)
      .then(() => undefined)
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, tickMs);
  timer.unref();
  return {
    settled: () => running,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
