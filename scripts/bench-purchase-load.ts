/**
 * bench:purchase's load generator: `clients` buyers in a closed loop, each with its own token (and so its own
 * wallet), each purchase the three calls in order (add-to-cart, inventory/buy, the SB Pay confirmation), over
 * undici's connection pools (one per server process; client i goes to process i mod N). And the CPU time of
 * the processes it measures, from /proc.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { cpuTicksOfStat } from './bench-purchase-report';

export interface Plan {
  /** one bearer token per client: distinct buyers */
  tokens: readonly string[];
  listings: readonly { id: number; event_id: number }[];
  /** a country id the billing address may name */
  countryId: number;
}

export interface Drive {
  /** each confirmed purchase's time, ms, ascending */
  purchases: number[];
  calls: number;
  /** failed calls by `<call> <status>[ <outcome>]` */
  errors: Map<string, number>;
  /** seconds from the first call to the last answer */
  elapsed: number;
}

/** One pool per origin, enough connections for its share of the clients (one request in flight on each). */
export const poolsFor = (origins: readonly string[], clients: number) =>
  origins.map(
    (origin) =>
      new Pool(origin, {
        connections: Math.ceil(clients / origins.length),
        pipelining: 1,
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      }),
  );

/** Idempotency keys unique across runs, warm-ups and servers of one bench process. */
let seq = 0;

type Answer = { status: number; json: { data?: Record<string, unknown>; message?: string } | undefined };

async function post(pool: Pool, path: string, token: string, body?: unknown): Promise<Answer> {
  const res = await pool.request({
    method: 'POST',
    path: `/api${path}`,
    headers: {
      authorization: `Bearer ${token}`,
      'idempotency-key': `bench-${process.pid}-${++seq}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: Answer['json'];
  try {
    json = JSON.parse(text) as Answer['json'];
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

/** The closed loop: each client buys one ticket after another until `seconds` are up, then finishes its purchase. */
export async function drive(pools: readonly Pool[], plan: Plan, clients: number, seconds: number): Promise<Drive> {
  if (plan.tokens.length < clients)
    throw new Error(`${clients} clients need ${clients} buyers, not ${plan.tokens.length}`);
  const purchases: number[] = [];
  const errors = new Map<string, number>();
  let calls = 0;
  const fail = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
  const until = performance.now() + seconds * 1000;
  const loop = async (client: number) => {
    const token = plan.tokens[client] as string;
    const pool = pools[client % pools.length] as Pool;
    let n = client;
    while (performance.now() < until) {
      n += 7;
      const listing = plan.listings[n % plan.listings.length] as { id: number; event_id: number };
      const started = performance.now();
      try {
        calls += 1;
        const cart = await post(
          pool,
          `/purchase/lmt-trade/add-to-cart?currrency=GBP&client_country=IN&lang=en&match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1&payment_method=1`,
          token,
        );
        if (cart.status !== 200) {
          fail(`add-to-cart ${cart.status}`);
          continue;
        }
        calls += 1;
        const booking = await post(pool, `/purchase/lmt-trade/inventory/buy/${listing.id}`, token, {
          cart_id: cart.json?.data?.cart_id,
          lang: 'en',
          client_country: 'IN',
          payment_method: 1,
          first_name: 'Bench',
          last_name: 'Buyer',
          email: 'buyer@bench.test',
          address: '1 Bench Road',
          country: plan.countryId,
          postal_code: 'B1 1AA',
        });
        if (booking.status !== 200) {
          fail(`inventory/buy ${booking.status}`);
          continue;
        }
        calls += 1;
        const paid = await post(pool, '/purchase/lmt-trade/confirmation', token, {
          booking_id: booking.json?.data?.booking_id,
          payment_method: 1,
        });
        const outcome = (paid.json?.data?.result as { booking_status?: string } | undefined)?.booking_status;
        if (paid.status !== 200 || outcome !== 'Success') {
          fail(`confirmation ${paid.status} ${outcome ?? paid.json?.message ?? ''}`.trim());
          continue;
        }
        purchases.push(performance.now() - started);
      } catch (error) {
        fail(`network ${(error as { code?: string }).code ?? (error as Error).message}`);
      }
    }
  };
  const wall = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  const elapsed = (performance.now() - wall) / 1000;
  purchases.sort((a, b) => a - b);
  return { purchases, calls, errors, elapsed };
}

let ticksPerSecond: number | undefined;
/** The kernel's clock ticks a second (the unit of /proc's CPU times), usually 100. */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** A process's CPU time so far, in µs (from /proc/<pid>/stat, in steps of a clock tick: 10 ms); 0 once it is gone. */
export function cpuMicros(pid: number): number {
  try {
    return (cpuTicksOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1e6) / clockTicks();
  } catch {
    return 0;
  }
}
