import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { inventoryViewsMachine, type ListingView } from './inventory-views.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const view: ListingView = {
  id: 5,
  name: 'Off sale',
  filters: { status: 'unpublished' },
  sort: 'match_date',
  hidden: ['face_value'],
  updated_at: '2026-11-28T10:00:00.000Z',
};
const input = { name: view.name, filters: view.filters, sort: view.sort, hidden: view.hidden };

const events = [
  { type: 'views.retried' },
  { type: 'view.saved', view: input },
  { type: 'view.deleted', id: 5 },
  { type: 'xstate.done.actor.loadViews', output: [view] },
  { type: 'xstate.error.actor.loadViews', error: new ApiError(500, 'Failed to fetch data') },
  { type: 'xstate.done.actor.saveView', output: view },
  { type: 'xstate.error.actor.saveView', error: new ApiError(422, 'You have 20 saved views, the most.') },
  { type: 'xstate.done.actor.deleteView', output: 5 },
  { type: 'xstate.error.actor.deleteView', error: new ApiError(404, 'View not found.') },
];

function start() {
  const control = controllableActors(['loadViews', 'saveView', 'deleteView'] as const);
  const actor = createActor(inventoryViewsMachine.provide({ actors: control.actors }));
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted };
}

describe('inventory views statechart, model-based', () => {
  const paths = modelPaths(inventoryViewsMachine, {
    events,
    identity: ({ value, context }) => [value, context.views.length, context.lastSaved],
    invariant: 'the views shown are the ones loaded, saved and not deleted',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(inventoryViewsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted } = start();
      await replay(path, actor, control.settle, (real) => {
        const { context } = real;
        if (real.matches('loading') || real.matches('failed')) expect(context.views).toEqual([]);
        for (const v of context.views) expect(v).toEqual(view);
        if (context.lastSaved !== null)
          expect(context.views.map((v: ListingView) => v.id)).toContain(context.lastSaved);
        if (real.matches('saving')) expect(control.pending('saveView')?.input).toEqual(input);
        if (real.matches('deleting')) expect(control.pending('deleteView')?.input).toBe(5);
        for (const e of emitted.filter((x) => x.type === 'notify'))
          expect(['You have 20 saved views, the most.', 'View not found.']).toContain(e.message);
      });
      actor.stop();
      await flush();
    });
  }
});

describe('inventory views statechart', () => {
  it('a view saved under a name already there replaces it, by name', async () => {
    const { actor, control, emitted } = start();
    await control.settle({
      type: 'xstate.done.actor.loadViews',
      output: [view, { ...view, id: 6, name: 'A first' }],
    });
    actor.send({ type: 'view.saved', view: { ...input, sort: 'price_asc' } });
    await control.settle({ type: 'xstate.done.actor.saveView', output: { ...view, sort: 'price_asc' } });
    expect(actor.getSnapshot().context.views.map((v) => [v.name, v.sort])).toEqual([
      ['A first', 'match_date'],
      ['Off sale', 'price_asc'],
    ]);
    expect(emitted).toContainEqual({ type: 'view.done', message: "View 'Off sale' saved" });
  });
});
