import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type AdditionalTemplate,
  type InventoryColumn,
  inventoryMachine,
  type Listing,
  type ListingDetail,
} from './inventory.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const listing = (id: number, changes: Partial<Listing> = {}): Listing =>
  ({
    id,
    match_id: 7,
    match_name: 'Arsenal vs Chelsea',
    match_date: '2027-01-10',
    Category: 'Longside Lower',
    ticket_block: '112',
    row: 'F',
    seats: null,
    ticket_type_id: 1,
    quantity: 4,
    sold: 0,
    split_type: 'any',
    price: 12_500,
    face_value: 9_000,
    currency: 'GBP',
    status: 'published',
    ...changes,
  }) as Listing;
const soldRefusal = new ApiError(409, 'This listing has sold tickets and cannot be deleted.');
const undoRefusal = new ApiError(409, 'This change was already undone.');
const everyPublished = { q: '', date_from: null, date_to: null, status: 'published' as const, ticket_type_id: null };
const logs: ListingDetail = { kind: 'logs', logs: [] };
const template: AdditionalTemplate = {
  template_id: 3,
  name: 'Collection point',
  content: 'Collect at gate C.',
  file: null,
  listings_count: 1,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

const events = [
  { type: 'selection.toggled', id: 1 },
  { type: 'selection.set', ids: [1, 2] },
  { type: 'selection.cleared' },
  { type: 'selection.allMatching' },
  { type: 'columns.toggled', column: 'face_value' },
  { type: 'edit.requested', id: 1 },
  { type: 'price.requested', ids: [1, 2] },
  { type: 'price.requested', ids: [] },
  { type: 'price.requested', ids: [], filter: everyPublished },
  { type: 'price.saved', id: 1, price: 9_900 },
  { type: 'price.saved', id: 1, price: 0 },
  { type: 'status.requested', ids: [1], status: 'unpublished' },
  { type: 'delete.requested', ids: [1] },
  { type: 'change.confirmed', price: { price: 9_900 } },
  { type: 'change.confirmed', price: { change_amount: 0 } },
  { type: 'change.confirmed', edit: { row: 'G', quantity: 6, template_ids: [3] } },
  { type: 'change.confirmed' },
  { type: 'change.cancelled' },
  { type: 'detail.opened', listing: listing(1), kind: 'logs' },
  { type: 'detail.tabbed', kind: 'insights' },
  { type: 'detail.retried' },
  { type: 'detail.closed' },
  { type: 'xstate.done.actor.loadColumns', output: ['face_value'] satisfies InventoryColumn[] },
  { type: 'xstate.error.actor.loadColumns', error: new ApiError(500, 'down') },
  { type: 'xstate.done.actor.saveColumns', output: undefined },
  { type: 'xstate.error.actor.saveColumns', error: new ApiError(500, 'down') },
  {
    type: 'xstate.done.actor.applyChange',
    output: {
      patches: [{ id: 1, changes: { price: 9_900 } }],
      reload: false,
      changeId: 'c-1',
      message: '1 price updated.',
    },
  },
  {
    type: 'xstate.done.actor.applyChange',
    output: { patches: [], reload: true, changeId: null, message: '2 listings deleted.' },
  },
  { type: 'xstate.error.actor.applyChange', error: soldRefusal },
  { type: 'undo.requested' },
  { type: 'undo.dismissed' },
  { type: 'xstate.done.actor.undoChange', output: 'Undone: 1 listing restored.' },
  { type: 'xstate.error.actor.undoChange', error: undoRefusal },
  { type: 'xstate.done.actor.loadDetail', output: logs },
  { type: 'xstate.error.actor.loadDetail', error: new ApiError(500, 'down') },
  { type: 'xstate.done.actor.loadTemplates', output: [template] },
  { type: 'xstate.error.actor.loadTemplates', error: new ApiError(403, 'no settings') },
  { type: 'templates.retried' },
];

/** The list child as a stand-in that records what the inventory tells it. */
function listStandIn() {
  const heard: Array<{ type: string; key?: number }> = [];
  const logic = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event as never) } } });
  return { logic, heard };
}

function start() {
  const control = controllableActors([
    'loadColumns',
    'saveColumns',
    'applyChange',
    'loadDetail',
    'loadTemplates',
    'undoChange',
  ] as const);
  const list = listStandIn();
  const actor = createActor(inventoryMachine.provide({ actors: { ...control.actors, listings: list.logic as never } }));
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted, heard: list.heard };
}

describe('inventory statechart, model-based', () => {
  const paths = modelPaths(inventoryMachine, {
    events,
    identity: ({ value, context }) => [
      value,
      context.change?.kind ?? null,
      context.selected.length > 0,
      context.allMatching,
      context.undo !== null,
    ],
    invariant: 'the selection, the change in progress and the open detail are what the state shows',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(inventoryMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted } = start();
      await replay(path, actor, control.settle, (real) => {
        const { context } = real;
        const change = (real.value as { change: string }).change;
        if (change === 'idle' || change === 'undoing') expect(context.change).toBeNull();
        else expect((context.change?.ids.length ?? 0) > 0 || 'filter' in (context.change ?? {})).toBe(true);
        // Undo is offered for a change the server gave an id, and sent for that id
        if (change === 'undoing') expect(control.pending('undoChange')?.input).toBe('c-1');
        if (context.undo) expect(context.undo.changeId).toBe('c-1');
        if (change === 'sending') {
          const sent = control.pending('applyChange')?.input as {
            change: unknown;
            price: number | null;
            edit: unknown;
          };
          expect(sent.change).toEqual(context.change);
          if (context.change?.kind === 'price') expect(sent.price).toEqual({ price: 9_900 });
          if (context.change?.kind === 'edit') expect(sent.edit).toEqual({ row: 'G', quantity: 6, template_ids: [3] });
        }
        if (change === 'refused') expect(context.changeError).toBe(soldRefusal.message);
        const detail = (real.value as { detail: unknown }).detail;
        if (detail === 'closed') expect(context.detail).toBeNull();
        else expect(context.detail?.listing.id).toBe(1);
        for (const e of emitted.filter((x) => x.type === 'notify'))
          expect([soldRefusal.message, undoRefusal.message, 'Failed to save the column settings']).toContain(e.message);
        // an edit or a price is never sent without its values
        if (change === 'sending' && context.change?.kind === 'edit') expect(context.edit).not.toBeNull();
        // the picker offers the templates once loaded, and none while loading or after a failure to load
        const templates = (real.value as { templates: string }).templates;
        if (templates === 'ready') expect(context.templates).toEqual([template]);
        else expect(context.templates).toEqual([]);
      });
      actor.stop();
      await flush();
    });
  }
});

describe('inventory statechart', () => {
  it('a selection of every listing that matches goes to the server as the filter', async () => {
    const { actor, control } = start();
    actor.send({ type: 'selection.set', ids: [1] });
    actor.send({ type: 'selection.allMatching' });
    expect(actor.getSnapshot().context.allMatching).toBe(true);
    actor.send({ type: 'status.requested', ids: [], status: 'unpublished', filter: everyPublished });
    expect(control.pending('applyChange')?.input).toMatchObject({
      change: { kind: 'status', ids: [], status: 'unpublished', filter: everyPublished },
    });
    actor.send({ type: 'selection.toggled', id: 2 });
    expect(actor.getSnapshot().context.allMatching).toBe(false);
  });

  it('a price typed in the grid is sent at once, without a dialog', () => {
    const { actor, control } = start();
    actor.send({ type: 'price.saved', id: 4, price: 12_000 });
    expect(control.pending('applyChange')?.input).toEqual({
      change: { kind: 'price', ids: [4] },
      price: { price: 12_000 },
      edit: null,
    });
  });

  it('a new price for a selection patches the rows the server answers, and says so', async () => {
    const { actor, control, emitted, heard } = start();
    actor.send({ type: 'selection.set', ids: [1, 2, 2] });
    expect(actor.getSnapshot().context.selected).toEqual([1, 2]);
    actor.send({ type: 'price.requested', ids: actor.getSnapshot().context.selected });
    // no price, no request
    actor.send({ type: 'change.confirmed' });
    expect(actor.getSnapshot().matches({ change: 'confirming' })).toBe(true);
    actor.send({ type: 'change.confirmed', price: { change_percent: -5 } });
    expect(control.pending('applyChange')?.input).toEqual({
      change: { kind: 'price', ids: [1, 2] },
      price: { change_percent: -5 },
      edit: null,
    });
    await control.settle({
      type: 'xstate.done.actor.applyChange',
      output: {
        patches: [
          { id: 1, changes: { price: 9_900 } },
          { id: 2, changes: { price: 9_900 } },
        ],
        reload: false,
        changeId: 'c-9',
        message: '2 prices updated.',
      },
    });
    await flush();
    expect(heard.filter((e) => e.type === 'item.patched').map((e) => e.key)).toEqual([1, 2]);
    expect(emitted).toContainEqual({ type: 'change.done', message: '2 prices updated.' });
    // Undo sends the change's id and reads the list again
    expect(actor.getSnapshot().context.undo).toEqual({ changeId: 'c-9', message: '2 prices updated.' });
    actor.send({ type: 'undo.requested' });
    expect(control.pending('undoChange')?.input).toBe('c-9');
    await control.settle({ type: 'xstate.done.actor.undoChange', output: 'Undone: 2 listings restored.' });
    await flush();
    expect(heard.map((e) => e.type)).toContain('list.refreshed');
    expect(actor.getSnapshot().context.undo).toBeNull();
  });

  it("a refused deletion keeps the dialog with the server's message; a done one reloads the list", async () => {
    const { actor, control, heard } = start();
    actor.send({ type: 'delete.requested', ids: [1] });
    actor.send({ type: 'change.confirmed' });
    await control.settle({ type: 'xstate.error.actor.applyChange', error: soldRefusal });
    expect(actor.getSnapshot().matches({ change: 'refused' })).toBe(true);
    expect(actor.getSnapshot().context.changeError).toBe('This listing has sold tickets and cannot be deleted.');
    actor.send({ type: 'change.cancelled' });
    actor.send({ type: 'delete.requested', ids: [3] });
    actor.send({ type: 'change.confirmed' });
    await control.settle({
      type: 'xstate.done.actor.applyChange',
      output: { patches: [], reload: true, changeId: null, message: '1 listing deleted.' },
    });
    await flush();
    expect(heard.map((e) => e.type)).toContain('list.refreshed');
  });

  it('saves the hidden columns each time one is toggled', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.loadColumns', output: ['sold'] });
    actor.send({ type: 'columns.toggled', column: 'face_value' });
    expect(control.pending('saveColumns')?.input).toEqual(['sold', 'face_value']);
    actor.send({ type: 'columns.toggled', column: 'sold' });
    expect(control.pending('saveColumns')?.input).toEqual(['face_value']);
  });
});
