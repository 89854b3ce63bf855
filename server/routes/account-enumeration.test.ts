import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';

// Issue 13's enumeration test, the timing half (account-flows.test.ts checks that the answers are the same):
// sign-up, resend and reset answer a registered address and an unknown one in the same time, within a tolerance,
// and check-email (which says whether an address is taken, as sign-up needs) does too. Measured in process
// (app.request, no network), the two kinds of call interleaved so that a load on the shared machine falls on
// both; the clock moves an hour between rounds so that no per-address or per-client limit changes the work.
// Each kind is summed up by its lower quartile of 25 calls: a load on the machine only adds time, so the lower
// quartile is the call's own cost with less of the neighbours' noise than a median (an attacker measures the
// same way). Before mailInOneCommit (server/auth/accounts.ts) a reset request for a registered address cost
// four commits and an unknown one none: this test was red on it (reset and resend) on SQLite.

type Server = Awaited<ReturnType<typeof freshServer>>;

const ROUNDS = 25;
/** The lower quartiles of the two kinds may differ by this share of the smaller one, plus SLACK_MS. */
const TOLERANCE = 0.5;
const SLACK_MS = 3;
const PASSWORD = 'Sign-up-1234';

const lowerQuartile = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 4)] ?? 0;
};

describe('no account enumeration by timing', () => {
  let s: Server;
  let calls = 0;
  beforeAll(async () => {
    s = await freshServer({ trustProxy: 1, appUrl: 'http://portal.test' });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** One call from a client of its own; its wall time in ms. */
  const timed = async (path: string, body: unknown) => {
    calls += 1;
    const client = `198.51.${Math.floor(calls / 250)}.${calls % 250}`;
    const started = performance.now();
    const res = await s.json('POST', path, body, undefined, { 'x-forwarded-for': client });
    await res.text();
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    return ms;
  };

  /** `known` and `unknown` calls, interleaved (the order swapped each round): their lower quartiles in ms. */
  async function compare(call: (known: boolean, round: number) => Promise<number>) {
    const times = { known: [] as number[], unknown: [] as number[] };
    // a first pair warms the statements up
    await call(true, -1);
    await call(false, -1);
    for (let round = 0; round < ROUNDS; round++) {
      s.clock.advance(61 * 60_000);
      for (const known of round % 2 ? [true, false] : [false, true])
        (known ? times.known : times.unknown).push(await call(known, round));
    }
    return { known: lowerQuartile(times.known), unknown: lowerQuartile(times.unknown) };
  }

  const within = ({ known, unknown }: { known: number; unknown: number }) =>
    Math.abs(known - unknown) <= TOLERANCE * Math.min(known, unknown) + SLACK_MS;

  it('sign-up: a registered address (a note by mail) and a new one (an account and a link)', async () => {
    const quartiles = await compare((known, round) =>
      timed('/auth/register', {
        first_name: 'Tim',
        last_name: 'Ing',
        email: known ? 'seller@demo.test' : `timing-new-${round}@example.test`,
        password: PASSWORD,
        password_confirmation: PASSWORD,
      }),
    );
    expect(quartiles, JSON.stringify(quartiles)).toSatisfy(within);
  });

  it('reset request: a registered address (a link by mail) and an unknown one (nothing)', async () => {
    const quartiles = await compare((known, round) =>
      timed('/auth/password/reset-request', {
        email: known ? 'rival@demo.test' : `timing-nobody-${round}@example.test`,
      }),
    );
    expect(quartiles, JSON.stringify(quartiles)).toSatisfy(within);
  });

  it('resend: an address waiting for verification (a new link) and an unknown one (nothing)', async () => {
    // the accounts waiting: signed up, never verified
    for (let round = -1; round < ROUNDS; round++)
      await timed('/auth/register', {
        first_name: 'Wai',
        last_name: 'Ting',
        email: `timing-waiting-${round}@example.test`,
        password: PASSWORD,
        password_confirmation: PASSWORD,
      });
    const quartiles = await compare((known, round) =>
      timed('/auth/resend-verify-email', {
        email: known ? `timing-waiting-${round}@example.test` : `timing-nobody-${round}@example.test`,
      }),
    );
    expect(quartiles, JSON.stringify(quartiles)).toSatisfy(within);
  });

  it('check-email: a taken address and a free one', async () => {
    const quartiles = await compare((known, round) =>
      timed('/auth/check-email', { email: known ? 'seller@demo.test' : `timing-free-${round}@example.test` }),
    );
    expect(quartiles, JSON.stringify(quartiles)).toSatisfy(within);
  });
});
