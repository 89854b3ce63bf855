import { type RawBuilder, sql } from 'kysely';
import type { Clock } from '../clock';
import type { Db } from '../db/database';

/**
 * Login throttling, kept in the database so that several server processes on one Postgres agree.
 *
 * Counters are kept, each in a row of its own table (server/auth/login-gate.ts says which a login meets): per
 * account address and client together (`login_pair_failures`), per account address from browsers it does not
 * know (`login_failures`), per known browser (`login_device_failures`), and per client (`login_client_failures`,
 * the socket address or the address a trusted proxy forwarded). The address's rows exist whether or not an
 * account has it, so the answers never tell which addresses are registered.
 *
 * Before a password is verified, the try reserves an "in flight" slot on both rows with one conditional
 * upsert: failures + tries in flight must stay below the allowance (the throttle threshold, or one at a time
 * once throttled). So a burst of parallel wrong passwords verifies no more than the throttle allows, while a
 * correct password is never counted as a failure: a try that finds no free slot waits briefly for the tries
 * in flight to end instead of being refused. A reservation that is never released (a process killed mid-way)
 * stops counting after RESERVATION_MS.
 */
export interface ThrottleRules {
  /** From this many failures in a row every further failure makes the key wait `throttleMs`. */
  throttleAfter: number;
  throttleMs: number;
  /** At this many the key is locked for `lockMs`, and its count restarts at `throttleAfter` when the lock ends. */
  lockAfter: number;
  lockMs: number;
  /** Failures are forgotten after this long without a new one. */
  forgetMs: number;
  /** At most this many tries of one key are verified at once, whatever the throttle would allow. */
  maxInFlight: number;
}

/**
 * One account address from one client (`login_pair_failures`): the guesses of one place at one account. From the
 * 5th failure in a row each failure makes the pair wait 30 s; the 10th locks the pair for 15 minutes, and the count
 * restarts at 5. An attacker's guesses lock the attacker's place out of the account, not the owner elsewhere.
 */
export const PAIR_RULES: ThrottleRules = {
  throttleAfter: 5,
  throttleMs: 30_000,
  lockAfter: 10,
  lockMs: 15 * 60_000,
  forgetMs: 60 * 60_000,
  maxInFlight: 5,
};

/**
 * One account address from every browser it does not know (`login_failures`): guesses spread over many places
 * (a botnet). Higher than a pair's, so that one place's guesses lock their pair well before the account; a
 * browser the account knows (server/auth/devices.ts) passes this lock, and the owner is mailed a link that lifts
 * it (server/auth/unlock.ts). No wait between failures (the pairs make each place wait): from the 20th they are
 * checked one at a time, the 30th locks for 15 minutes, and when the lock ends the count restarts at 20, so ten
 * more lock it again.
 */
export const ACCOUNT_RULES: ThrottleRules = {
  throttleAfter: 20,
  throttleMs: 0,
  lockAfter: 30,
  lockMs: 15 * 60_000,
  forgetMs: 60 * 60_000,
  maxInFlight: 5,
};

/** A browser the account knows (`login_device_failures`): as a pair, so that a stolen device cookie guesses no faster. */
export const DEVICE_RULES: ThrottleRules = PAIR_RULES;

/**
 * A client (an address, or an IPv6 /64) may fail more often: an office behind one NAT is many people. It may
 * have only a few tries verified at once, fewer than the hashing pool holds (server/auth/hash-pool.ts), so that
 * one client's flood cannot fill the pool and turn everybody else's login away.
 */
export const CLIENT_RULES: ThrottleRules = {
  throttleAfter: 20,
  throttleMs: 30_000,
  lockAfter: 50,
  lockMs: 15 * 60_000,
  forgetMs: 60 * 60_000,
  maxInFlight: 3,
};

/** After this long a reservation no longer counts (its process is presumed gone). */
export const RESERVATION_MS = 60_000;

export interface Scope {
  table: 'login_failures' | 'login_client_failures' | 'login_pair_failures' | 'login_device_failures';
  column: 'email' | 'client' | 'pair' | 'device';
  rules: ThrottleRules;
}

export const ACCOUNT_SCOPE: Scope = { table: 'login_failures', column: 'email', rules: ACCOUNT_RULES };
export const PAIR_SCOPE: Scope = { table: 'login_pair_failures', column: 'pair', rules: PAIR_RULES };
export const DEVICE_SCOPE: Scope = { table: 'login_device_failures', column: 'device', rules: DEVICE_RULES };
export const CLIENT_SCOPE: Scope = { table: 'login_client_failures', column: 'client', rules: CLIENT_RULES };

/** The key of an account address and a client together in PAIR_SCOPE. */
export const pairKey = (email: string, client: string) => `${email}\n${client}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** The SQL pieces of a scope at a moment: the count as it stands (forgotten after a quiet period), the live reservations. */
function terms(scope: Scope, now: Date) {
  const t = sql.table(scope.table);
  const col = (name: string) => sql.ref(`${scope.table}.${name}`);
  const nowIso = now.toISOString();
  const fresh = sql<number>`(CASE WHEN ${col('last_failed_at')} > ${iso(now.getTime() - scope.rules.forgetMs)} THEN ${col('failed_logins')} ELSE 0 END)`;
  const live = sql<number>`(CASE WHEN ${col('in_flight_until')} > ${nowIso} THEN ${col('in_flight')} ELSE 0 END)`;
  const liveLessOne = sql<number>`(CASE WHEN ${live} > 0 THEN ${live} - 1 ELSE 0 END)`;
  return { t, col, key: sql.ref(scope.column), nowIso, fresh, live, liveLessOne };
}

export type Reservation = { kind: 'reserved' } | { kind: 'locked'; retryAfterSeconds: number } | { kind: 'full' };

const lit = (n: number) => sql.lit(n);

/**
 * Takes one in-flight slot for `key` if the key is neither locked nor at its allowance, in one statement.
 * Answers 'locked' (with the seconds left) or 'full' (tries in flight hold every slot: wait and try again).
 */
export async function tryReserve(db: Db, scope: Scope, key: string, now: Date): Promise<Reservation> {
  const { t, col, key: keyCol, nowIso, fresh, live } = terms(scope, now);
  const until = iso(now.getTime() + RESERVATION_MS);
  const { throttleAfter } = scope.rules;
  const reserved = await sql<{ failed_logins: number }>`
    INSERT INTO ${t} (${keyCol}, failed_logins, in_flight, in_flight_until, locked_until, last_failed_at)
    VALUES (${key}, 0, 1, ${until}, NULL, ${nowIso})
    ON CONFLICT (${keyCol}) DO UPDATE SET
      failed_logins = ${fresh},
      in_flight = ${live} + 1,
      in_flight_until = ${until}
    WHERE (${col('locked_until')} IS NULL OR ${col('locked_until')} <= ${nowIso})
      AND ${fresh} + ${live} < (CASE WHEN ${fresh} >= ${lit(throttleAfter)} THEN ${fresh} + 1 ELSE ${lit(throttleAfter)} END)
      AND ${live} < ${lit(scope.rules.maxInFlight)}
    RETURNING failed_logins`.execute(db);
  if (reserved.rows.length > 0) return { kind: 'reserved' };
  const row = await sql<{ locked_until: string | null }>`
    SELECT locked_until FROM ${t} WHERE ${keyCol} = ${key}`.execute(db);
  const lockedUntil = row.rows[0]?.locked_until;
  if (lockedUntil && lockedUntil > nowIso) return { kind: 'locked', retryAfterSeconds: secondsUntil(lockedUntil, now) };
  return { kind: 'full' };
}

/** Gives a slot back without counting anything (the try was refused before its password was checked). */
export async function release(db: Db, scope: Scope, key: string, now: Date): Promise<void> {
  const { t, key: keyCol, liveLessOne } = terms(scope, now);
  await sql`UPDATE ${t} SET in_flight = ${liveLessOne} WHERE ${keyCol} = ${key}`.execute(db);
}

/**
 * Counts a failure and gives the slot back, throttling or locking the key from its threshold on (a lock
 * restarts the count at the throttle threshold, so that once it ends one wrong guess does not lock again).
 * Answers the seconds the key must now wait, 0 when it need not (`locks` tells a lock from a throttle).
 */
export async function recordFailure(db: Db, scope: Scope, key: string, now: Date): Promise<number> {
  const { t, col, key: keyCol, nowIso, fresh, liveLessOne } = terms(scope, now);
  const { throttleAfter, lockAfter } = scope.rules;
  const next = sql<number>`(${fresh} + 1)`;
  const row = await sql<{ locked_until: string | null }>`
    INSERT INTO ${t} (${keyCol}, failed_logins, in_flight, in_flight_until, locked_until, last_failed_at)
    VALUES (${key}, 1, 0, NULL, NULL, ${nowIso})
    ON CONFLICT (${keyCol}) DO UPDATE SET
      failed_logins = (CASE WHEN ${next} >= ${lit(lockAfter)} THEN ${lit(throttleAfter)} ELSE ${next} END),
      locked_until = (CASE
        WHEN ${next} >= ${lit(lockAfter)} THEN ${iso(now.getTime() + scope.rules.lockMs)}
        WHEN ${next} >= ${lit(throttleAfter)} THEN ${iso(now.getTime() + scope.rules.throttleMs)}
        ELSE ${col('locked_until')} END),
      last_failed_at = ${nowIso},
      in_flight = ${liveLessOne}
    RETURNING locked_until`.execute(db);
  const lockedUntil = row.rows[0]?.locked_until;
  return lockedUntil && lockedUntil > nowIso ? secondsUntil(lockedUntil, now) : 0;
}

/**
 * A correct password: the count and any lock are cleared and the slot given back; the row goes once no other
 * try is in flight on it.
 */
export async function recordSuccess(db: Db, scope: Scope, key: string, now: Date): Promise<void> {
  const { t, col, key: keyCol, nowIso, liveLessOne } = terms(scope, now);
  await sql`UPDATE ${t} SET failed_logins = 0, locked_until = NULL, in_flight = ${liveLessOne} WHERE ${keyCol} = ${key}`.execute(
    db,
  );
  await sql`DELETE FROM ${t} WHERE ${keyCol} = ${key} AND failed_logins = 0
    AND (in_flight <= 0 OR ${col('in_flight_until')} IS NULL OR ${col('in_flight_until')} <= ${nowIso})`.execute(db);
}

/** Whether a wait that recordFailure answered is a lock (minutes) rather than a throttle (seconds). */
export const locks = (scope: Scope, waitSeconds: number) => waitSeconds * 1000 > scope.rules.throttleMs;

function secondsUntil(when: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(when) - now.getTime()) / 1000));
}

/**
 * Rows that say nothing any more: no lock running, no reservation live, and no failure remembered (none, or the
 * last one older than the quiet period). Answers how many were deleted.
 */
export async function pruneThrottle(db: Db, now: Date): Promise<number> {
  let deleted = 0;
  for (const scope of [ACCOUNT_SCOPE, PAIR_SCOPE, DEVICE_SCOPE, CLIENT_SCOPE]) {
    const { t, col, nowIso } = terms(scope, now);
    const forgetBefore = iso(now.getTime() - scope.rules.forgetMs);
    const quiet: RawBuilder<unknown> = sql`(${col('locked_until')} IS NULL OR ${col('locked_until')} <= ${nowIso})
      AND (${col('in_flight_until')} IS NULL OR ${col('in_flight_until')} <= ${nowIso} OR in_flight <= 0)
      AND (failed_logins = 0 OR last_failed_at <= ${forgetBefore})`;
    const result = await sql`DELETE FROM ${t} WHERE ${quiet}`.execute(db);
    deleted += Number(result.numAffectedRows ?? 0);
  }
  return deleted;
}

/** How long a try waits for a slot while other tries on the same key are being verified. */
export const SLOT_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reserves a slot on a throttle row, waiting (polling the database, so that it works across processes) while
 * tries in flight hold every slot: they end in a failure that throttles the key, or in a success that frees it.
 */
export async function reserveSlot(db: Db, clock: Clock, scope: Scope, key: string): Promise<Reservation> {
  const deadline = performance.now() + SLOT_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const reservation = await tryReserve(db, scope, key, clock.now());
    if (reservation.kind !== 'full' || performance.now() + pause > deadline) return reservation;
    await sleep(pause);
  }
}
