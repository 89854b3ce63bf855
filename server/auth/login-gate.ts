import type { Clock } from '../clock';
import type { Db } from '../db/database';
import {
  ACCOUNT_SCOPE,
  CLIENT_SCOPE,
  DEVICE_SCOPE,
  locks,
  PAIR_SCOPE,
  pairKey,
  recordFailure,
  recordSuccess,
  release,
  reserveSlot,
  type Scope,
} from './throttle';

/** Which lock a refused try met: the account at this client, the client, the account everywhere, this browser. */
export type LockScope = 'email' | 'client' | 'account' | 'device';

/** Who is trying: the account's address, the client, and the hash of the browser's device cookie if it is known. */
export interface Caller {
  email: string;
  client: string;
  /** A browser that logged in to this account before (server/auth/devices.ts knownDevice), or null. */
  device: string | null;
}

type Gate = { scope: Scope; key: string; lock: LockScope };

/**
 * The throttles a try meets (server/auth/throttle.ts), in the order their slots are taken. A browser the account
 * knows meets its own throttle only: neither the account's lock nor the client's (a cookie bound to this account
 * lets in nobody else, and its own failures lock it as a pair's would). Any other browser meets its client's, the
 * account's at this client, and the account's from everywhere.
 */
export function gatesOf(caller: Caller): Gate[] {
  if (caller.device) return [{ scope: DEVICE_SCOPE, key: caller.device, lock: 'device' }];
  return [
    { scope: CLIENT_SCOPE, key: caller.client, lock: 'client' },
    { scope: PAIR_SCOPE, key: pairKey(caller.email, caller.client), lock: 'email' },
    { scope: ACCOUNT_SCOPE, key: caller.email, lock: 'account' },
  ];
}

export type Entry =
  | { kind: 'entered' }
  | { kind: 'locked'; scope: LockScope; retryAfterSeconds: number }
  /** The client's (or browser's) tries in flight held every slot all the while: that caller is too busy. */
  | { kind: 'crowded' }
  /** The account's tries in flight held every slot all the while. */
  | { kind: 'busy' };

/** Takes a slot on every gate of the caller, or none: the first refusal gives back the slots taken before it. */
export async function enter(db: Db, clock: Clock, caller: Caller): Promise<Entry> {
  const taken: Gate[] = [];
  for (const gate of gatesOf(caller)) {
    const reservation = await reserveSlot(db, clock, gate.scope, gate.key);
    if (reservation.kind === 'reserved') {
      taken.push(gate);
      continue;
    }
    for (const t of taken) await release(db, t.scope, t.key, clock.now());
    if (reservation.kind === 'locked')
      return { kind: 'locked', scope: gate.lock, retryAfterSeconds: reservation.retryAfterSeconds };
    return gate.lock === 'client' || gate.lock === 'device' ? { kind: 'crowded' } : { kind: 'busy' };
  }
  return { kind: 'entered' };
}

/** Gives every slot back without counting anything (the try ended before its password was judged). */
export async function leaveUncounted(db: Db, caller: Caller, now: Date): Promise<void> {
  for (const gate of gatesOf(caller)) await release(db, gate.scope, gate.key, now);
}

export interface Failed {
  /** The longest wait now owed, and the lock that owes it (0 when none). */
  retryAfterSeconds: number;
  scope: LockScope;
  /** This failure locked the account for browsers it does not know: its owner is told (server/auth/unlock.ts). */
  accountLocked: boolean;
}

/** Counts a wrong password on every gate of the caller. */
export async function leaveFailed(db: Db, caller: Caller, now: Date): Promise<Failed> {
  let worst: Failed = { retryAfterSeconds: 0, scope: 'email', accountLocked: false };
  let accountLocked = false;
  for (const gate of gatesOf(caller)) {
    const wait = await recordFailure(db, gate.scope, gate.key, now);
    if (gate.lock === 'account' && locks(gate.scope, wait)) accountLocked = true;
    // the pair's wait is told before the account's when they are equal: it is the one this place caused
    if (wait > worst.retryAfterSeconds) worst = { retryAfterSeconds: wait, scope: gate.lock, accountLocked: false };
  }
  return { ...worst, accountLocked };
}

/**
 * A right password: the account's counts that it proves wrong are cleared (this browser's, this place's, the
 * account's from everywhere); the client's slot goes back, its count stays (an attacker with an account of its own
 * could otherwise clear its network's count between guesses).
 */
export async function leaveSucceeded(db: Db, caller: Caller, now: Date): Promise<void> {
  for (const gate of gatesOf(caller)) {
    if (gate.lock === 'client') await release(db, gate.scope, gate.key, now);
    else await recordSuccess(db, gate.scope, gate.key, now);
  }
}
