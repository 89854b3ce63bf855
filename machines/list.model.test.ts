import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor, createMachine } from 'xstate';
import { createListMachine, FILL_CHECK_MS, type ListPage, SCROLL_DEBOUNCE_MS } from './list.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

interface Row {
  id: number;
  read: boolean;
}
interface Filters {
  q: string;
}
type Sort = 'newest' | 'oldest';

const row = (id: number): Row => ({ id, read: false });
const page = (n: number, last: number, ids: number[], nextCursor?: string | null): ListPage<Row> => ({
  items: ids.map(row),
  page: n,
  lastPage: last,
  total: 6,
  ...(nextCursor === undefined ? {} : { nextCursor }),
});

/** A list of rows filtered by a query; failures of the 'loud' query are toasted. */
const rowsMachine = createListMachine<Row, Filters, Sort>({
  id: 'rows',
  fetchPage: () => Promise.reject(new Error('provided by each test')),
  keyOf: (r) => r.id,
  errorMessage: ({ q }) => `Failed to load ${q}`,
  toastsErrors: ({ q }) => q === 'loud',
  opened: {
    patch: (r) => ({ ...r, read: true }),
    tell: { systemId: 'reader', event: (r) => (r.read ? null : { type: 'row.read', id: r.id }) },
  },
});

const events = [
  { type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) },
  { type: 'xstate.done.actor.fetchPage', output: page(3, 3, [2, 5]) },
  { type: 'xstate.done.actor.fetchPage', output: page(1, 1, []) },
  { type: 'xstate.error.actor.fetchPage', error: new Error('down') },
  { type: 'filters.changed', filters: { q: 'loud' } },
  { type: 'filters.changed', filters: { q: 'quiet' } },
  { type: 'sort.changed', sort: 'oldest' },
  { type: 'page.requested', page: 2 },
  { type: 'list.scrolled', distanceFromBottom: 20 },
  { type: 'list.scrolled', distanceFromBottom: 400 },
  { type: 'list.measured', fillsView: false },
  { type: 'list.measured', fillsView: true },
  { type: 'list.moreRequested' },
  { type: 'list.retried' },
  { type: 'list.refreshed' },
  { type: 'item.opened', key: 1 },
  { type: 'item.patched', key: 2, changes: { read: true } },
];
const input = { filters: { q: 'quiet' } };
const DELAYS: Record<string, number> = { fillCheck: FILL_CHECK_MS, scrollDebounce: SCROLL_DEBOUNCE_MS };

/** An actor of the system that hears what the list tells it. */
const reader = () => {
  const heard: unknown[] = [];
  const logic = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
  return { logic, heard };
};

function start(initial = input) {
  const control = controllableActors(['fetchPage'] as const);
  const system = reader();
  const actor = createActor(rowsMachine.provide({ actors: control.actors }), { input: initial });
  // `reader` joins the list's actor system, as the menu counts share the app's with the notifications feed
  createActor(system.logic, { parent: actor as AnyActorRef, systemId: 'reader' }).start();
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted, heard: system.heard };
}

describe('list statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(rowsMachine, {
    events,
    input,
    // the search tells states apart by what the views show and the guards read; the coverage adds the rest
    identity: ({ value, context }) => [
      value,
      context.filters,
      context.page,
      context.lastPage,
      context.items.length,
      context.distance,
    ],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(rowsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted } = start();
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('after.')) {
            await vi.advanceTimersByTimeAsync(DELAYS[event.type.slice('after.'.length)] ?? 0);
            return true;
          }
          if (event.type.startsWith('xstate.') && event.type.endsWith('.fetchPage')) {
            // the page asked for: the requested one for a first load, else the one after the last loaded
            const asked = control.pending('fetchPage')?.input as { page: number; filters: Filters } | undefined;
            const now = actor.getSnapshot();
            expect(asked?.page).toBe(now.matches('loading') ? now.context.requested : now.context.page + 1);
            expect(asked?.filters).toEqual(now.context.filters);
          }
          return control.settle(event);
        },
        (real) => {
          const { context } = real;
          // what each state promises the views
          if (real.matches('loading')) expect(context.items).toEqual([]);
          if (real.matches('ready')) expect(context.page).toBeLessThan(context.lastPage);
          if (real.matches('complete')) expect(context.page).toBeGreaterThanOrEqual(context.lastPage);
          if (real.matches('empty')) expect(context.items).toEqual([]);
          if (real.hasTag('error')) expect(context.error).toBe(`Failed to load ${context.filters.q}`);
          else expect(context.error).toBeNull();
          expect(new Set(context.items.map((i: Row) => i.id)).size).toBe(context.items.length);
          // only the loud query toasts; the quiet one logs
          const toasts = emitted.filter((e) => e.type === 'notify');
          expect(toasts.every((t) => t.message === 'Failed to load loud')).toBe(true);
        },
      );
      logged.mockRestore();
      actor.stop();
      await flush();
    });
  }
});

describe('list statechart', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the next page only after scrolling has paused 100 ms within 50 px of the bottom', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    await vi.advanceTimersByTimeAsync(FILL_CHECK_MS);
    actor.send({ type: 'list.measured', fillsView: true });
    actor.send({ type: 'list.scrolled', distanceFromBottom: 30 });
    await vi.advanceTimersByTimeAsync(60);
    actor.send({ type: 'list.scrolled', distanceFromBottom: 50 });
    await vi.advanceTimersByTimeAsync(60);
    expect(control.isPending('fetchPage')).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    expect(control.pending('fetchPage')?.input).toMatchObject({ page: 2, filters: { q: 'quiet' } });
  });

  it('does not load more when the pause happens farther than 50 px from the bottom', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    actor.send({ type: 'list.scrolled', distanceFromBottom: 51 });
    await vi.advanceTimersByTimeAsync(500);
    expect(actor.getSnapshot().matches({ ready: 'waiting' })).toBe(true);
    expect(control.isPending('fetchPage')).toBe(false);
  });

  it('asks the view whether the items fill it 200 ms after a page, and loads more when they do not', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 2, [1]) });
    await vi.advanceTimersByTimeAsync(FILL_CHECK_MS - 1);
    expect(actor.getSnapshot().hasTag('measure')).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().hasTag('measure')).toBe(true);
    actor.send({ type: 'list.measured', fillsView: false });
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(2, 2, [1, 2]) });
    expect(actor.getSnapshot().value).toBe('complete');
    // a page that overlaps the last adds no duplicate
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([1, 2]);
  });

  it('new filters start again at page 1, even while a page is on its way, and abort it', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    actor.send({ type: 'list.moreRequested' });
    expect(control.pending('fetchPage')?.input).toMatchObject({ page: 2 });
    actor.send({ type: 'filters.changed', filters: { q: 'loud' } });
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(control.pending('fetchPage')?.input).toEqual({ page: 1, cursor: null, filters: { q: 'loud' }, sort: null });
    actor.send({ type: 'filters.changed', filters: { q: 'loud' } });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
  });

  it('numbered paging: a requested page replaces the items', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    actor.send({ type: 'page.requested', page: 3 });
    expect(control.pending('fetchPage')?.input).toMatchObject({ page: 3 });
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(3, 3, [5, 6]) });
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([5, 6]);
    expect(actor.getSnapshot().value).toBe('complete');
    // beyond the last page, or the page shown: nothing to do
    actor.send({ type: 'page.requested', page: 4 });
    actor.send({ type: 'page.requested', page: 3 });
    expect(control.isPending('fetchPage')).toBe(false);
  });

  it('pages by cursor when the server gives one', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 1, [1], 'c2') });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'list.moreRequested' });
    expect(control.pending('fetchPage')?.input).toMatchObject({ page: 2, cursor: 'c2' });
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(2, 1, [2], null) });
    expect(actor.getSnapshot().value).toBe('complete');
  });

  it('toasts the failures its options say to, and logs the others', async () => {
    const loud = start({ filters: { q: 'loud' } });
    await loud.control.settle({ type: 'xstate.error.actor.fetchPage', error: new Error('x') });
    expect(loud.emitted).toContainEqual({ type: 'notify', level: 'error', message: 'Failed to load loud' });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const quiet = start();
    await quiet.control.settle({ type: 'xstate.error.actor.fetchPage', error: new Error('x') });
    expect(quiet.emitted.filter((e) => e.type === 'notify')).toEqual([]);
    expect(quiet.actor.getSnapshot().context.error).toBe('Failed to load quiet');
    expect(spy).toHaveBeenCalledWith('Failed to load quiet', expect.any(Error));
    spy.mockRestore();
  });

  it('an opened item shows its patch at once and the system actor named by the options hears of it', async () => {
    const { actor, control, heard } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 1, [1, 2]) });
    actor.send({ type: 'item.opened', key: 2 });
    expect(actor.getSnapshot().context.items.find((i) => i.id === 2)).toEqual({ id: 2, read: true });
    await flush();
    expect(heard).toEqual([{ type: 'row.read', id: 2 }]);
    // once read, opening it again tells nobody
    actor.send({ type: 'item.opened', key: 2 });
    await flush();
    expect(heard).toHaveLength(1);
  });
});
