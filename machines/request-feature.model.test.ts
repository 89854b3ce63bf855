import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { EMPTY_FEATURE_REQUEST, FEATURE_REQUEST_SENT, requestFeatureMachine } from './request-feature.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const sent = {
  id: 4,
  title: 'Bulk price change',
  category: 'listings' as const,
  created_at: '2026-11-23T06:00:00.000Z',
};

const events = [{ type: 'another.requested' }, { type: 'xstate.done.actor.requestFeatureForm', output: sent }];

describe('settings › request a feature statechart, model-based', () => {
  const paths = modelPaths(requestFeatureMachine, { events });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(requestFeatureMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['requestFeatureForm'] as const);
      const toasts: string[] = [];
      const actor = createActor(requestFeatureMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      let sentCount = 0;
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type === 'xstate.done.actor.requestFeatureForm') sentCount++;
          return control.settle(event);
        },
        (real) => {
          // every form starts empty; the confirmation names what was sent and is toasted once per request
          if (real.matches('editing')) {
            expect(control.pending('requestFeatureForm')?.input).toEqual({ values: EMPTY_FEATURE_REQUEST });
            expect(real.context.sent).toBeNull();
          }
          if (real.matches('sent')) expect(real.context.sent?.title).toBe('Bulk price change');
          expect(toasts).toEqual(Array.from({ length: sentCount }, () => FEATURE_REQUEST_SENT));
        },
      );
      actor.stop();
      await flush();
    });
  }
});
