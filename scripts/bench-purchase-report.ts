/**
 * bench:purchase's figures and lines: pure functions (no I/O), so that the words of its last line and the way
 * its figures are taken are tested (bench-purchase-report.test.ts).
 */

/** The `p`th percentile (0 to 100) of ascending `sorted` figures; NaN when there are none. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/**
 * The CPU time (user + system, in clock ticks) a process has used, from the text of its `/proc/<pid>/stat`.
 * The command name (field 2) is in parentheses and may hold spaces and parentheses itself, so the fields are
 * counted from the last ')': utime and stime are fields 14 and 15.
 */
export function cpuTicksOfStat(stat: string): number {
  const close = stat.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${stat.slice(0, 60)}`);
  // after ')': field 3 (state) is the first
  const fields = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('no utime/stime in a /proc/<pid>/stat line');
  return utime + stime;
}

/** One server's figures in the last line. */
export interface Side {
  /** confirmed purchases a second */
  rate: number;
  /** p99 of a whole purchase (three calls), ms */
  p99: number;
  /** the server processes' CPU a confirmed purchase, µs */
  cpuUs: number;
}

/** What the last line says after the servers' figures. */
export interface Verdict {
  /** listings oversold, over every server checked */
  oversold: number;
  /** every checked ledger balanced */
  balanced: boolean;
  /** PostgreSQL only: deadlocks during the run and the share (0 to 1) of sampled active backends waiting on a lock */
  postgres?: { deadlocks: number; lockWaitShare: number };
}

const whole = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '-');
const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** `1234/s p99 45 ms cpu 380 us` */
export const sideText = (s: Side) => `${whole(s.rate)}/s p99 ${whole(s.p99)} ms cpu ${whole(s.cpuUs)} us`;

/**
 * The bench's last line, in one form whatever the figures:
 * `purchase: product 1234/s p99 45 ms cpu 380 us | reference 2100/s p99 40 ms cpu 260 us | ratio 0.59 cpu 1.46x | oversold 0 ledger balanced`,
 * with ` | deadlocks 0 lock-waits 1.2%` on PostgreSQL. With one server only (`--only`), its part alone and no
 * ratio. `ratio` is the product's purchases a second over the reference's; `cpu N.NNx` the product's server CPU
 * a purchase over the reference's.
 */
export function purchaseLine(product: Side | undefined, reference: Side | undefined, verdict: Verdict): string {
  const parts: string[] = [];
  if (product) parts.push(`product ${sideText(product)}`);
  if (reference) parts.push(`reference ${sideText(reference)}`);
  if (product && reference) {
    parts.push(`ratio ${fixed(product.rate / reference.rate, 2)} cpu ${fixed(product.cpuUs / reference.cpuUs, 2)}x`);
  }
  parts.push(`oversold ${verdict.oversold} ledger ${verdict.balanced ? 'balanced' : 'unbalanced'}`);
  if (verdict.postgres) {
    parts.push(`deadlocks ${verdict.postgres.deadlocks} lock-waits ${fixed(verdict.postgres.lockWaitShare * 100, 1)}%`);
  }
  return `purchase: ${parts.join(' | ')}`;
}

/** `add-to-cart 409 x3, confirmation 200 Failed x1`, or `none`: the failed calls, most frequent first. */
export function errorsText(errors: ReadonlyMap<string, number>): string {
  if (errors.size === 0) return 'none';
  return [...errors.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([what, n]) => `${what} x${n}`)
    .join(', ');
}

/** The 1, 5 and 15 minute load averages as `1.52 1.20 0.98`. */
export const loadText = (load: readonly number[]) => load.map((l) => l.toFixed(2)).join(' ');
