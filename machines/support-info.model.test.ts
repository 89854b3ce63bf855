import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { supportInfoMachine } from './support-info.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const info = { title: 'Need help?', sub_title: 'We are here', phone: '+44 20 0000 0000', email: 'help@example.test' };
const events = [
  { type: 'xstate.done.actor.loadSupportInfo', output: info },
  { type: 'xstate.error.actor.loadSupportInfo', error: new Error('down') },
];

describe('support popup statechart, model-based', () => {
  const paths = modelPaths(supportInfoMachine, { events });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(supportInfoMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['loadSupportInfo'] as const);
      const actor = createActor(supportInfoMachine.provide({ actors: control.actors })).start();
      let loads = 0;
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('xstate.done')) loads += 1;
          return control.settle(event);
        },
        (real) => {
          if (real.matches('shown')) expect(real.context.info).toEqual(info);
          // once loaded, the text is never fetched again
          expect(loads).toBeLessThanOrEqual(1);
        },
      );
    });
  }
});
