import { describe, expect, it } from 'vitest';
import { modelPaths, replay, uncovered } from '../testing/model';
import { startWithStandIns } from '../testing/stand-ins';
import { type AdminQueue, adminHomeMachine } from './home.machine';

const queues: AdminQueue[] = [
  { queue: 'deposits', count: 2, oldest_at: '2026-11-27T09:00:00.000Z' },
  { queue: 'kyc', count: 0, oldest_at: null },
];
const later: AdminQueue[] = [{ queue: 'deposits', count: 3, oldest_at: '2026-11-27T09:00:00.000Z' }];

const events = [
  { type: 'home.retried' },
  { type: 'home.refreshed' },
  { type: 'xstate.done.actor.loadQueues', output: queues },
  { type: 'xstate.done.actor.loadQueues', output: later },
  { type: 'xstate.error.actor.loadQueues', error: new Error('offline') },
];

const start = () => startWithStandIns(adminHomeMachine, { settled: ['loadQueues'] });

describe('the back office home statechart, model-based', () => {
  const paths = modelPaths(adminHomeMachine, {
    events,
    identity: (s) => ({ value: s.value, counts: s.context.queues.map((q: AdminQueue) => q.count) }),
    invariant: 'the counts shown are the last ones read; a refresh that fails keeps them',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminHomeMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = start();
      let shown: readonly AdminQueue[] = [];
      await replay(
        path,
        run.actor,
        (event) => {
          const done = event as { type: string; output?: AdminQueue[] };
          if (done.type === 'xstate.done.actor.loadQueues' && done.output) shown = done.output;
          return run.perform(event);
        },
        (real) => {
          expect(real.context.queues).toEqual(shown);
          expect(real.hasTag('loading')).toBe(real.matches('loading'));
          expect(real.hasTag('error')).toBe(real.matches('failed'));
          expect(run.control.isPending('loadQueues')).toBe(real.matches('loading') || real.matches('refreshing'));
        },
      );
      await run.stop();
    });
  }
});
