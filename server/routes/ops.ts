import { createHash, timingSafeEqual } from 'node:crypto';
import { authenticate } from '../auth/session';
import type { Router } from '../contract/router';
import { HttpError, MESSAGES } from '../http/errors';
import type { AskKind, WorkerAnswer } from '../ops/cluster-ipc';
import { databaseGauges, readDatabaseFigures } from '../ops/figures';
import {
  aggregatedText,
  localMetrics,
  type Metrics,
  mergeHistories,
  PROMETHEUS_CONTENT_TYPE,
  type Sample,
  type Totals,
} from '../ops/metrics';
import type { ProcessReadiness, Readiness } from '../ops/readiness';

export interface OpsDeps {
  readiness: Readiness;
  metrics: Metrics;
  /** With WORKERS=N: every worker's answer to a question (server/ops/cluster-ipc.ts); absent for one process. */
  peers?: (kind: AskKind) => Promise<WorkerAnswer[]>;
  /** `METRICS_TOKEN`: a scraper's bearer token besides the back office's. */
  metricsToken?: string | null;
}

/** What a worker tells the System page: its totals, its mail queue and its last hour. */
export interface WorkerSystem {
  totals: Totals;
  mailQueued: number;
  eventLoopDelayMs: number;
  history: Sample[];
}

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;
const digest = (text: string) => createHash('sha256').update(text).digest();
const sameToken = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export const workerSystem = (metrics: Metrics): WorkerSystem => {
  const history = metrics.history();
  return {
    totals: { ...metrics.totals },
    mailQueued: metrics.mailQueued(),
    eventLoopDelayMs: history.at(-1)?.event_loop_delay_ms ?? 0,
    history,
  };
};

/** Health for balancers, metrics for Prometheus, and the back office's System page. */
export function opsRoutes({ route }: Router, ops: OpsDeps) {
  const { readiness, metrics } = ops;

  /** Every process's answer, this one's alone without a cluster (or when the primary is gone). */
  async function everyone<T>(
    kind: AskKind,
    local: () => Promise<T>,
  ): Promise<Array<{ worker: number; value: T | null }>> {
    const answers = ops.peers ? await ops.peers(kind) : [];
    if (answers.length > 0) return answers as Array<{ worker: number; value: T | null }>;
    return [{ worker: 0, value: await local() }];
  }

  async function readinessOfAll() {
    const workers = (await everyone<ProcessReadiness>('readiness', () => readiness.check())).map(
      ({ worker, value }): ProcessReadiness =>
        value ?? { worker, ready: false, checks: [{ name: 'shutdown', ok: false, detail: 'did not answer in time' }] },
    );
    return { ready: workers.length > 0 && workers.every((w) => w.ready), workers };
  }

  route('/health/live', 'get', () => ({ status: 200, body: { success: true, message: 'ok' } }));

  route('/health/ready', 'get', async () => {
    const data = await readinessOfAll();
    if (data.ready) return { status: 200, body: { success: true, message: 'ready', data } };
    const failed = data.workers.flatMap((w) =>
      w.checks
        .filter((c) => !c.ok)
        .map((c) => `${w.worker === null ? '' : `worker ${w.worker}: `}${c.name} ${c.detail}`),
    );
    return { status: 503, body: { success: false, message: `not ready: ${failed[0] ?? 'no worker answered'}`, data } };
  });

  route('/metrics', 'get', async ({ c }, { db, clock }) => {
    const header = c.req.header('authorization');
    if (!header) throw new HttpError(401, MESSAGES.loginRequired);
    const token = BEARER.exec(header)?.[1] ?? '';
    if (!(ops.metricsToken && sameToken(token, ops.metricsToken))) {
      const user = token ? await authenticate(db, clock, `Bearer ${token}`) : null;
      if (!user) throw new HttpError(401, MESSAGES.sessionExpired);
      if (user.user_type !== 'admin') throw new HttpError(403, MESSAGES.forbidden);
    }
    const perProcess = (await everyone('metrics', () => localMetrics(metrics)))
      .map((a) => a.value)
      .filter((v): v is Awaited<ReturnType<typeof localMetrics>> => Array.isArray(v));
    const gauges = databaseGauges(() => readDatabaseFigures(db, clock.now()), clock);
    const text = `${await aggregatedText(perProcess)}\n${await gauges.metrics()}`;
    return { status: 200, body: text, headers: { 'Content-Type': PROMETHEUS_CONTENT_TYPE } };
  });

  route('/admin/system', 'get', async (_input, { db, clock }) => {
    const now = clock.now();
    const [figures, readinessNow, workers] = await Promise.all([
      readDatabaseFigures(db, now),
      readinessOfAll(),
      everyone<WorkerSystem>('system', async () => workerSystem(metrics)),
    ]);
    const answered = workers.map((w) => w.value).filter((v): v is WorkerSystem => v !== null);
    const sum = (pick: (w: WorkerSystem) => number) => answered.reduce((total, w) => total + pick(w), 0);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          generated_at: now.toISOString(),
          readiness: readinessNow,
          ...figures,
          mail_queued: sum((w) => w.mailQueued),
          requests: sum((w) => w.totals.requests),
          purchases: sum((w) => w.totals.purchases),
          purchases_failed: sum((w) => w.totals.purchases_failed),
          login_refusals: sum((w) => w.totals.login_refusals),
          event_loop_delay_ms: Math.max(0, ...answered.map((w) => w.eventLoopDelayMs)),
          history: mergeHistories(answered.map((w) => w.history)),
        },
      },
    };
  });
}
