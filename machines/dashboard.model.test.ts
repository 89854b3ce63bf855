import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { dashboardMachine } from './dashboard.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const ACTORS = ['loadOverview', 'loadAwaiting', 'loadNotifications', 'loadTopEvents', 'loadActivity'] as const;
const eventsFor = (id: (typeof ACTORS)[number]) => [
  { type: `xstate.done.actor.${id}`, output: { sample: id } },
  { type: `xstate.error.actor.${id}`, error: new Error('Failed to fetch data') },
  { type: 'currency.changed', currency: 'EUR' },
  { type: 'widget.retried' },
];

describe('dashboard statechart, model-based', () => {
  // the five widgets are independent regions: walking each one's paths (the others left loading) reaches
  // every state and transition without walking the product of all five
  const paths = ACTORS.flatMap((id) =>
    modelPaths(dashboardMachine, { events: eventsFor(id), input: {}, settling: [id] }),
  );

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(dashboardMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(ACTORS);
      const actor = createActor(dashboardMachine.provide({ actors: control.actors }), { input: {} });
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        // every failed widget was announced with the spec's toast
        const failed = Object.values(real.value as Record<string, string>).filter((v) => v === 'failed').length;
        expect(toasts.length).toBeGreaterThanOrEqual(failed);
        expect(new Set(toasts)).toEqual(new Set(toasts.length ? ['Failed to fetch data'] : []));
        for (const id of ACTORS) {
          const pending = control.pending(id)?.input as { currency?: string } | undefined;
          // a money widget always asks in the currency shown
          if (pending?.currency) expect(pending.currency).toBe(real.context.currency);
        }
      });
    });
  }
});
