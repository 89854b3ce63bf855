import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { hashPool } from './hash-pool';

/**
 * scrypt at one of OWASP's equivalent parameter sets: N=2^16, r=8, p=2. It costs the same CPU time as
 * N=2^17, r=8, p=1 but half the memory (64 MiB a hash instead of 128), which matters when several logins hash
 * at once. Hashes are self-describing, `scrypt$N$r$p$salt$hash` (salt and hash base64url), so older hashes
 * still verify, and a successful login rehashes them at these parameters (`needsRehash`).
 */
export const OWASP_SCRYPT = { N: 2 ** 16, r: 8, p: 2 } as const;

/**
 * The parameters new hashes get. Only inside the test runner (VITEST set) and when its configuration asks for
 * it (SB_TEST_FAST_HASH=1, vite.config.ts) is the cost cut to N=2^12 (4 MiB, a few ms): hundreds of logins in
 * the server tests would otherwise spend minutes hashing, and the throttle, the pool and the rehash work the
 * same at any cost. Everything else (npm start, the browser tests, the benchmarks) hashes at OWASP's cost.
 */
export function scryptParameters(env: NodeJS.ProcessEnv = process.env): { N: number; r: number; p: number } {
  return env.VITEST && env.SB_TEST_FAST_HASH === '1' ? { N: 2 ** 12, r: 8, p: 1 } : OWASP_SCRYPT;
}

export const SCRYPT = scryptParameters();
const KEY_LENGTH = 64;
/** Enough for the largest parameters we ever stored (N=2^17, r=8: 128 MiB). */
const MAX_MEM = 160 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

type Schedule = <T>(task: () => Promise<T>) => Promise<T>;
/** By default a hash waits for its turn in the pool however long the queue is. */
const waitForTurn: Schedule = (task) => hashPool.run(task);

/** Hashes at the present parameters, in the hashing pool. */
export async function hashPassword(password: string, schedule: Schedule = waitForTurn): Promise<string> {
  const salt = randomBytes(16);
  const key = await schedule(() => derive(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p));
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface Parsed {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): Parsed | null {
  const [kind, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !hash || rest.length > 0) return null;
  const parsed = { n: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(parsed).every((v) => Number.isSafeInteger(v) && v > 0)) return null;
  return { ...parsed, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

/**
 * Checks a password against a stored hash. Logins pass `tryRun` so that a full pool refuses at once
 * (PoolFullError) instead of queueing without end.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  schedule: Schedule = waitForTurn,
): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await schedule(() => derive(password, parsed.salt, parsed.n, parsed.r, parsed.p));
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** True when a stored hash was made with other parameters than today's: rehash it at the next login. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n !== SCRYPT.N || parsed.r !== SCRYPT.r || parsed.p !== SCRYPT.p;
}

/** A hash of nothing, verified when the email is unknown so that both failures take the same time. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
