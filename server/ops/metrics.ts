import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';

/** How a purchase was paid: the contract's payment_method 1, 2 and 3. */
export type PurchaseMethod = 'sb_pay' | 'card' | 'stored_card';
export const purchaseMethodOf = (method: number): PurchaseMethod =>
  method === 1 ? 'sb_pay' : method === 3 ? 'stored_card' : 'card';

/** Latency buckets, in seconds: the API's targets sit at 20 and 50 ms, its slow reads at a few hundred. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

let processRegistry: Registry | undefined;
/**
 * Node's own figures (event-loop delay, memory, GC, CPU, handles), collected once per process whatever the
 * number of apps in it (the tests run several).
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

type Child = { inc(): void };
type Observer = { observe(value: number): void };

/**
 * The figures one server counts as it serves: requests and their latency per contract operation, purchases by
 * method and outcome, the login throttle's refusals, mail handed to SMTP and not yet accepted. Each app has
 * its own registry (the tests run several apps in one process); Node's figures are the process's. The counters'
 * children are made once per operation and status, so that a request costs two map reads, an increment and an
 * observation.
 */
export function createMetrics() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'sb_http_requests_total',
    help: 'API requests answered, by contract operation and status.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'sb_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by contract operation.',
    labelNames: ['operation'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const purchases = new Counter({
    name: 'sb_purchases_total',
    help: 'Purchase confirmations committed, by payment method and outcome (confirmed, or failed with its reason).',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  const throttled = new Counter({
    name: 'sb_login_throttle_refusals_total',
    help: 'Logins refused by the login throttle (429).',
    registers: [registry],
  });
  new Gauge({
    name: 'sb_mail_queued',
    help: 'Mail handed to the SMTP server and not yet accepted by it (the outbox queues none).',
    registers: [registry],
    collect() {
      this.set(mailInFlight);
    },
  });

  const counted = new Map<string, Child>();
  const timed = new Map<string, Observer>();
  const totals: Totals = { requests: 0, errors: 0, purchases: 0, purchases_failed: 0, login_refusals: 0 };
  const series = minuteSeries(totals);

  return {
    registry,
    totals,
    /** The last hour, a sample a minute, the minute in progress last. */
    history: () => series.history(),
    mailQueued: () => mailInFlight,
    /** One answered API request: `operation` is the contract's id ('unmatched' for a path the contract lacks). */
    request(operation: string, status: number, seconds: number) {
      const key = `${operation} ${status}`;
      let count = counted.get(key);
      if (!count) {
        count = requests.labels(operation, String(status));
        counted.set(key, count);
      }
      count.inc();
      let time = timed.get(operation);
      if (!time) {
        time = latency.labels(operation);
        timed.set(operation, time);
      }
      time.observe(seconds);
      series.roll();
      totals.requests += 1;
      if (status >= 500) totals.errors += 1;
      if (operation === 'login' && status === 429) {
        throttled.inc();
        totals.login_refusals += 1;
      }
    },
    purchase(method: PurchaseMethod, outcome: string) {
      purchases.labels(method, outcome).inc();
      if (outcome === 'confirmed') totals.purchases += 1;
      else totals.purchases_failed += 1;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What the System page counts since the process started. */
export interface Totals {
  requests: number;
  errors: number;
  purchases: number;
  purchases_failed: number;
  login_refusals: number;
}

/** One minute of the System page's charts. */
export interface Sample extends Totals {
  /** The minute's start, ISO. */
  at: string;
  event_loop_delay_ms: number;
}

const MINUTE = 60_000;

let loopDelay: ReturnType<typeof monitorEventLoopDelay> | undefined;
/** The event loop's delay over the minute in progress (one monitor per process). */
function loopMonitor() {
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
  }
  return loopDelay;
}

/**
 * The totals a minute at a time, for the last hour: rolled by the requests themselves (a minute boundary passed
 * since the last one closes that minute), so no timer runs and a quiet minute costs nothing; the history fills
 * quiet minutes with zeros.
 */
function minuteSeries(totals: Totals) {
  const monitor = loopMonitor();
  let minute = Math.floor(Date.now() / MINUTE);
  let atStart: Totals = { ...totals };
  const closed: Sample[] = [];
  const close = (now: number) => {
    const delay = monitor.percentile(99) / 1e6;
    monitor.reset();
    closed.push(sampleOf(minute, totals, atStart, delay));
    while (closed.length > 60) closed.shift();
    minute = now;
    atStart = { ...totals };
  };
  return {
    roll() {
      const now = Math.floor(Date.now() / MINUTE);
      if (now !== minute) close(now);
    },
    history(): Sample[] {
      const now = Math.floor(Date.now() / MINUTE);
      if (now !== minute) close(now);
      const current = sampleOf(minute, totals, atStart, monitor.percentile(99) / 1e6);
      const byMinute = new Map(closed.map((s) => [s.at, s]));
      const out: Sample[] = [];
      for (let m = now - 59; m < now; m++) {
        const at = new Date(m * MINUTE).toISOString();
        out.push(byMinute.get(at) ?? { at, ...ZERO, event_loop_delay_ms: 0 });
      }
      out.push(current);
      return out;
    },
  };
}

const ZERO: Totals = { requests: 0, errors: 0, purchases: 0, purchases_failed: 0, login_refusals: 0 };

function sampleOf(minute: number, totals: Totals, atStart: Totals, delayMs: number): Sample {
  return {
    at: new Date(minute * MINUTE).toISOString(),
    requests: totals.requests - atStart.requests,
    errors: totals.errors - atStart.errors,
    purchases: totals.purchases - atStart.purchases,
    purchases_failed: totals.purchases_failed - atStart.purchases_failed,
    login_refusals: totals.login_refusals - atStart.login_refusals,
    event_loop_delay_ms: Number.isFinite(delayMs) ? Math.round(delayMs * 10) / 10 : 0,
  };
}

/** Several processes' histories as one: counts added up, the slowest event loop kept. */
export function mergeHistories(histories: Sample[][]): Sample[] {
  const byMinute = new Map<string, Sample>();
  for (const history of histories)
    for (const s of history) {
      const seen = byMinute.get(s.at);
      if (!seen) byMinute.set(s.at, { ...s });
      else {
        for (const k of Object.keys(ZERO) as (keyof Totals)[]) seen[k] += s[k];
        seen.event_loop_delay_ms = Math.max(seen.event_loop_delay_ms, s.event_loop_delay_ms);
      }
    }
  return [...byMinute.values()].sort((a, b) => a.at.localeCompare(b.at)).slice(-60);
}

let mailInFlight = 0;
/** The SMTP mailer counts what it has handed over and not heard back about. */
export const mailQueue = {
  handed() {
    mailInFlight += 1;
  },
  settled() {
    mailInFlight -= 1;
  },
};

/** One process's figures as JSON, for the process that answers a scrape to add up (server/ops/cluster.ts). */
export async function localMetrics(metrics: Metrics): Promise<MetricObjectWithValues<MetricValue<string>>[]> {
  return [
    ...(await processMetrics().getMetricsAsJSON()),
    ...(await metrics.registry.getMetricsAsJSON()),
  ] as MetricObjectWithValues<MetricValue<string>>[];
}

/**
 * The text of every process's figures added up (counters and histograms summed; prom-client's own rules for
 * Node's figures, such as the event-loop delay averaged), as Prometheus reads it.
 */
export async function aggregatedText(perProcess: unknown[][]): Promise<string> {
  return AggregatorRegistry.aggregate(perProcess as never).metrics();
}

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
