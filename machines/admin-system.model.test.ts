import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventObject } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type AdminSystemContext,
  adminSystemMachine,
  SYSTEM_REFRESH_MS,
  type SystemStatus,
} from './admin-system.machine';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';

const statusAt = (at: string, purchases: number): SystemStatus => ({
  generated_at: at,
  readiness: { ready: true, workers: [{ worker: null, ready: true, checks: [] }] },
  holds_open: 2,
  deposits_waiting: 1,
  payouts_waiting: 0,
  mail_queued: 0,
  requests: 40,
  purchases,
  purchases_failed: 0,
  login_refusals: 0,
  database_bytes: 1_048_576,
  upload_bytes: 2_048,
  last_backup_at: null,
  last_backup_error: null,
  event_loop_delay_ms: 1.2,
  history: [],
});
const first = statusAt('2026-11-28T10:00:00.000Z', 3);
const later = statusAt('2026-11-28T10:00:10.000Z', 4);

const events = [
  { type: 'xstate.done.actor.loadSystem', output: first },
  { type: 'xstate.error.actor.loadSystem', error: new ApiError(500, 'Server error') },
  { type: 'xstate.done.actor.refreshSystem', output: later },
  { type: 'xstate.error.actor.refreshSystem', error: new ApiError(503, 'Server error') },
  { type: 'system.refreshed' },
  { type: 'system.retried' },
  { type: 'after.refresh' },
];

/** What the guards and the view read: the state and which figures are shown. */
const identity = ({ value, context }: { value: unknown; context: AdminSystemContext }) => [
  value,
  context.status?.generated_at ?? null,
];

describe('admin System page statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(adminSystemMachine, {
    events,
    identity,
    invariant:
      'the figures shown are the last ones read; a failed refresh keeps them, marked stale; it reads again every ten seconds while open and on Refresh; a failed first read shows nothing but Retry',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminSystemMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = startWithStandIns(adminSystemMachine, {
        settled: ['loadSystem'],
        invokedAs: { refreshSystem: 'loadSystem' },
        delays: { refresh: SYSTEM_REFRESH_MS },
      });
      let shown: SystemStatus | null = null;
      await replay(
        path,
        run.actor,
        (event) => {
          const e = event as EventObject & { output?: SystemStatus };
          if (e.type === 'xstate.done.actor.loadSystem' || e.type === 'xstate.done.actor.refreshSystem')
            shown = e.output ?? null;
          return run.perform(event);
        },
        (real) => {
          expect(real.context.status).toEqual(shown);
          expect(real.hasTag('loading')).toBe(real.matches('loading'));
          expect(real.hasTag('error')).toBe(real.matches('unavailable'));
          expect(real.hasTag('stale')).toBe(real.matches('stale'));
          if (real.matches('loading') || real.matches('refreshing'))
            expect(run.control.isPending('loadSystem')).toBe(true);
          if (real.matches('unavailable')) expect(real.context.status).toBeNull();
          if (real.matches('stale') || real.matches('refreshing')) expect(real.context.status).not.toBeNull();
        },
      );
      await run.stop();
    });
  }
});
