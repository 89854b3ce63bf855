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
}

/**
 * A small semaphore for password hashing. scrypt runs on libuv's thread pool (4 threads by default), which
 * static files and other file reads share, and each hash holds 64 MiB: without a bound, a login flood
 * starves every file read and takes the memory of all the hashes in flight. `tryRun` (logins) refuses once
 * the queue is full; `run` (seeding, rehashing, decoy) waits its turn however long the queue is.
 *
 * This bounds one process's CPU and memory, which is a property of the process, not shared state: the
 * counters that several processes must agree on (failures, reservations) live in the database.
 */
export class HashPool {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly options: HashPoolOptions) {}

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** True when `tryRun` would refuse now. */
  isFull(): boolean {
    return this.active >= this.options.concurrency && this.waiting.length >= this.options.queueLimit;
  }

  /** Runs `task` when a slot is free, or throws PoolFullError at once when the queue is full. */
  tryRun<T>(task: () => Promise<T>): Promise<T> {
    if (this.isFull()) return Promise.reject(new PoolFullError(this.retryAfterSeconds()));
    return this.run(task);
  }

  /** Runs `task` when a slot is free, waiting however long the queue is. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.options.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next waiter, so `active` never dips and a newcomer cannot jump the queue
      if (next) next();
      else this.active -= 1;
    }
  }

  /** A hint for `Retry-After`: about the time the present queue takes to drain, at least a second. */
  private retryAfterSeconds(): number {
    const rounds = Math.ceil((this.active + this.waiting.length) / this.options.concurrency);
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
