import { availableParallelism } from 'node:os';

/** The pool is full: the caller should answer 503 with `Retry-After`. */
export class PoolFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The password hashing pool is full');
  }
}

export interface HashPoolOptions {
  /** How many tasks run at once. */
  concurrency: number;
  /** How many more may wait for a turn before `tryRun` refuses. */
  queueLimit: number;
  /**
   * How many tries of browsers the account knows (server/auth/devices.ts) may wait besides, in a lane of their
   * own that the pool serves first (default: as many as `queueLimit`).
   */
  knownQueueLimit?: number;
}

/**
 * Whose hash: a login from a browser the account knows (`known`), or anyone else's and the server's own work
 * (`unknown`). A flood of logins from made-up addresses fills the unknown lane only.
 */
export type Lane = 'known' | 'unknown';

/**
 * A small semaphore for password hashing. scrypt runs on libuv's thread pool (4 threads by default), which
 * static files and other file reads share, and each hash holds 64 MiB: without a bound, a login flood
 * starves every file read and takes the memory of all the hashes in flight. `tryRun` (logins) refuses once
 * its lane's queue is full; `run` (seeding, rehashing, decoy) waits its turn however long the queue is.
 *
 * Two lanes: the tries of browsers the account knows have a queue of their own and the next free slot, so that
 * during a flood of logins from many addresses (every other try answered 503) the owner's browser still logs in,
 * after at most the hash in progress.
 *
 * This bounds one process's CPU and memory, which is a property of the process, not shared state: the
 * counters that several processes must agree on (failures, reservations) live in the database.
 */
export class HashPool {
  private active = 0;
  private readonly waiting: Record<Lane, Array<() => void>> = { known: [], unknown: [] };

  constructor(readonly options: HashPoolOptions) {}

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.known.length + this.waiting.unknown.length;
  }

  private limitOf(lane: Lane): number {
    return lane === 'known' ? (this.options.knownQueueLimit ?? this.options.queueLimit) : this.options.queueLimit;
  }

  /** True when `tryRun` would refuse now in this lane. */
  isFull(lane: Lane = 'unknown'): boolean {
    return this.active >= this.options.concurrency && this.waiting[lane].length >= this.limitOf(lane);
  }

  /** Runs `task` when a slot is free, or throws PoolFullError at once when its lane's queue is full. */
  tryRun<T>(task: () => Promise<T>, lane: Lane = 'unknown'): Promise<T> {
    if (this.isFull(lane)) return Promise.reject(new PoolFullError(this.retryAfterSeconds()));
    return this.run(task, lane);
  }

  /** Runs `task` when a slot is free, waiting however long the queue is. */
  async run<T>(task: () => Promise<T>, lane: Lane = 'unknown'): Promise<T> {
    if (this.active >= this.options.concurrency) {
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      // the known lane first; the slot passes straight to the next waiter, so `active` never dips and a newcomer
      // cannot jump the queue
      const next = this.waiting.known.shift() ?? this.waiting.unknown.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  /** A hint for `Retry-After`: about the time the present queue takes to drain, at least a second. */
  private retryAfterSeconds(): number {
    const rounds = Math.ceil((this.active + this.queued) / this.options.concurrency);
    return Math.max(1, Math.ceil(rounds * ESTIMATED_HASH_SECONDS));
  }
}

/** About how long one hash takes on a small server (scrypt N=2^16, r=8, p=2: 0.25 to 0.5 s). */
const ESTIMATED_HASH_SECONDS = 0.5;

/**
 * One hash less than the cores (the event loop keeps a core), at least 1, and at most 3: libuv has 4
 * threads and file reads need at least one, and 3 hashes of 64 MiB keep a flood well under 400 MiB.
 */
export function defaultHashConcurrency(cores = availableParallelism()): number {
  return Math.min(3, Math.max(1, cores - 1));
}

export const hashPool = new HashPool({
  concurrency: defaultHashConcurrency(),
  // short: a login that would wait more than a few hash times is better told to come back
  queueLimit: Math.max(8, 4 * defaultHashConcurrency()),
});
