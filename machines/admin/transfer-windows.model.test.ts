import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../openapi/client';
import { modelPaths, replay, uncovered } from '../testing/model';
import { startWithStandIns } from '../testing/stand-ins';
import { type AdminEvent, type TransferWindowsContext, transferWindowsMachine } from './transfer-windows.machine';

const event = (id: number, hours: number | null): AdminEvent => ({
  id,
  match_name: `Match ${id}`,
  tournament: 'Premier League',
  event_date: '2026-12-20',
  event_time: '15:00',
  stadium_name: 'Stadium',
  transfer_window_hours: hours,
  transfers_open_at: hours === null ? null : '2026-12-19T15:00:00.000Z',
  open_orders: 2,
});
const list = [event(1, null), event(2, 48)];

const events = [
  { type: 'search.changed', q: 'arsenal' },
  { type: 'window.saved', id: 1, hours: 24 },
  { type: 'list.retried' },
  { type: 'after.typing' },
  { type: 'xstate.done.actor.loadEvents', output: list },
  { type: 'xstate.error.actor.loadEvents', error: new ApiError(500, 'Server error') },
  { type: 'xstate.done.actor.saveWindow', output: event(1, 24) },
  { type: 'xstate.error.actor.saveWindow', error: new ApiError(422, 'hours must be at most 168') },
];

const identity = ({ value, context }: { value: unknown; context: TransferWindowsContext }) => [
  value,
  context.q,
  context.events.map((e) => e.transfer_window_hours),
  context.problem?.message ?? null,
  context.saved?.id ?? null,
];

describe('the back office transfer windows statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(transferWindowsMachine, {
    events,
    identity,
    invariant:
      'the list shows the events last read; a save changes only its event, or says why beside it; a failed read offers Retry',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(transferWindowsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = startWithStandIns(transferWindowsMachine, {
        settled: ['loadEvents', 'saveWindow'],
        delays: { typing: 300 },
      });
      await replay(
        path,
        run.actor,
        (e) => run.perform(e),
        (real) => {
          expect(real.hasTag('loading')).toBe(real.matches('loading'));
          expect(real.hasTag('error')).toBe(real.matches('failed'));
          // a read the search overtook stays unsettled in the stand-in: only the running one is checked
          if (real.matches('loading')) expect(run.control.isPending('loadEvents')).toBe(true);
          expect(run.control.isPending('saveWindow')).toBe(real.matches('saving'));
          if (real.context.saved) {
            expect(real.context.events.find((e: AdminEvent) => e.id === real.context.saved?.id)).toEqual(
              real.context.saved,
            );
          }
          if (real.context.problem) expect(real.context.saved).toBeNull();
        },
      );
      await run.stop();
    });
  }
});
