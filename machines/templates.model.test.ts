import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type AdditionalTemplate,
  TEMPLATE_DELETED,
  TEMPLATE_SAVED,
  templateSchema,
  templatesMachine,
  valuesOf,
} from './templates.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const template: AdditionalTemplate = {
  template_id: 4,
  name: 'Collection point',
  content: 'Gate B, two hours before kick-off.',
  file: null,
  listings_count: 2,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

const events = [
  { type: 'template.addRequested' },
  { type: 'template.editRequested', template },
  { type: 'template.deleteRequested', template },
  { type: 'form.closed' },
  { type: 'delete.confirmed' },
  { type: 'delete.cancelled' },
  { type: 'xstate.done.actor.templateForm', output: template },
  { type: 'xstate.done.actor.deleteTemplate', output: { template_id: 4 } },
  { type: 'xstate.error.actor.deleteTemplate', error: new ApiError(404, 'Template not found.') },
];

const ACTORS = ['templateForm', 'deleteTemplate'] as const;

function start() {
  const control = controllableActors(ACTORS);
  const list = createMachine({ on: { 'list.refreshed': { actions: () => refreshed.push(1) } } });
  const refreshed: number[] = [];
  const actor = createActor(templatesMachine.provide({ actors: { ...control.actors, templatesList: list as never } }));
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted, refreshed };
}

describe('templates statechart, model-based', () => {
  const paths = modelPaths(templatesMachine, {
    events,
    invariant: 'the template being edited or deleted is the one picked; the list reloads after each saved change',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(templatesMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted, refreshed } = start();
      let saves = 0;
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type === 'xstate.done.actor.templateForm' || event.type === 'xstate.done.actor.deleteTemplate')
            saves++;
          return control.settle(event);
        },
        (real) => {
          const value = real.value as string;
          if (value === 'editing' || value === 'confirmingDelete' || value === 'deleting')
            expect(real.context.template).toEqual(template);
          if (value === 'adding' || value === 'idle') expect(real.context.template).toBeNull();
          if (value === 'adding') expect(control.pending('templateForm')?.input).toEqual({ values: valuesOf(null) });
          if (value === 'editing')
            expect(control.pending('templateForm')?.input).toEqual({ values: valuesOf(template) });
          if (value === 'deleting') expect(control.pending('deleteTemplate')?.input).toEqual({ templateId: 4 });
          expect(refreshed.length).toBe(saves);
          for (const e of emitted.filter((x) => x.type === 'notify'))
            expect([TEMPLATE_SAVED, TEMPLATE_DELETED, 'Template not found.']).toContain(e.message);
        },
      );
      actor.stop();
      await flush();
    });
  }
});

describe('template form values', () => {
  it('edits with the template id and adds without one; both need a name and a text', async () => {
    const v = await import('valibot');
    expect(v.parse(templateSchema, valuesOf(template))).toEqual({
      name: 'Collection point',
      content: 'Gate B, two hours before kick-off.',
      template_id: 4,
    });
    const empty = v.safeParse(templateSchema, valuesOf(null));
    expect(empty.success).toBe(false);
    expect(empty.issues?.map((i) => i.message)).toContain('Enter a name.');
  });
});
