import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor, createMachine } from 'xstate';
import { FILL_CHECK_MS, type ListPage, SCROLL_DEBOUNCE_MS } from './list.machine';
import { type FeedItem, type NotificationItem, notificationsMachine } from './notifications.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const notification = (id: number, viewed: 0 | 1 = 0): NotificationItem => ({
  id,
  name: 'new_order',
  description: `Order ${id}`,
  viewed,
  created_at: '2026-11-20T10:00:00Z',
  link: null,
});
const page = (n: number, last: number, items: FeedItem[]): ListPage<FeedItem> => ({ items, page: n, lastPage: last });

const events = [
  { type: 'xstate.done.actor.fetchPage', output: page(1, 3, [notification(1), notification(2, 1)]) },
  { type: 'xstate.done.actor.fetchPage', output: page(3, 3, [notification(5)]) },
  { type: 'xstate.done.actor.fetchPage', output: page(1, 1, []) },
  { type: 'xstate.error.actor.fetchPage', error: new Error('down') },
  { type: 'filters.changed', filters: { tab: 'activity' } },
  { type: 'filters.changed', filters: { tab: 'notifications' } },
  { type: 'list.scrolled', distanceFromBottom: 20 },
  { type: 'list.scrolled', distanceFromBottom: 400 },
  { type: 'list.measured', fillsView: false },
  { type: 'list.measured', fillsView: true },
  { type: 'item.opened', key: 1 },
  { type: 'item.opened', key: 2 },
  { type: 'page.requested', page: 2 },
];
const DELAYS: Record<string, number> = { fillCheck: FILL_CHECK_MS, scrollDebounce: SCROLL_DEBOUNCE_MS };

/** The feed with its network replaced, in an actor system where a stand-in `menuCounts` listens. */
function start(tab: 'notifications' | 'activity' = 'notifications') {
  const control = controllableActors(['fetchPage'] as const);
  const actor = createActor(notificationsMachine.provide({ actors: control.actors }), { input: { filters: { tab } } });
  const counts: unknown[] = [];
  const menuCounts = createMachine({ on: { '*': { actions: ({ event }) => counts.push(event) } } });
  createActor(menuCounts, { parent: actor as AnyActorRef, systemId: 'menuCounts' }).start();
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted, counts };
}

describe('notifications feed statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(notificationsMachine, {
    events,
    input: { filters: { tab: 'notifications' } },
    identity: ({ value, context }) => [value, context.filters, context.page, context.items, context.distance],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(notificationsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted, counts } = start();
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('after.')) {
            await vi.advanceTimersByTimeAsync(DELAYS[event.type.slice('after.'.length)] ?? 0);
            return true;
          }
          return control.settle(event);
        },
        (real) => {
          const { context } = real;
          const tab = context.filters.tab;
          if (real.hasTag('error')) {
            expect(context.error).toBe(
              tab === 'notifications' ? 'Failed to load notifications' : 'Failed to load activity',
            );
          }
          // only the notifications tab toasts its failures (the activity log shows its message in place)
          const toasts = emitted.filter((e) => e.type === 'notify');
          expect(toasts.every((t) => t.message === 'Failed to load notifications')).toBe(true);
          if (real.hasTag('error') && tab === 'notifications') expect(toasts.length).toBeGreaterThan(0);
          // a notification opened shows as read, and the menu counts heard of each unread one opened
          for (const told of counts) {
            const id = (told as { id: number }).id;
            expect(told).toEqual({ type: 'notification.opened', id });
          }
        },
      );
      logged.mockRestore();
      actor.stop();
      await flush();
    });
  }
});

describe('notifications feed statechart', () => {
  it('reads the tab asked for, from page 1', async () => {
    const { actor, control } = start();
    expect(control.pending('fetchPage')?.input).toEqual({
      page: 1,
      cursor: null,
      filters: { tab: 'notifications' },
      sort: null,
    });
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [notification(1)]) });
    actor.send({ type: 'filters.changed', filters: { tab: 'activity' } });
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(control.pending('fetchPage')?.input).toMatchObject({ page: 1, filters: { tab: 'activity' } });
  });

  it("toasts 'Failed to load notifications' but only logs 'Failed to load activity'", async () => {
    const first = start('notifications');
    await first.control.settle({ type: 'xstate.error.actor.fetchPage', error: new Error('x') });
    expect(first.emitted).toContainEqual({ type: 'notify', level: 'error', message: 'Failed to load notifications' });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const second = start('activity');
    await second.control.settle({ type: 'xstate.error.actor.fetchPage', error: new Error('x') });
    expect(second.emitted.filter((e) => e.type === 'notify')).toEqual([]);
    expect(second.actor.getSnapshot().context.error).toBe('Failed to load activity');
    expect(spy).toHaveBeenCalledWith('Failed to load activity', expect.any(Error));
    spy.mockRestore();
  });

  it('an unread notification opened shows as read at once and the menu counts hear of it', async () => {
    const { actor, control, counts } = start();
    await control.settle({
      type: 'xstate.done.actor.fetchPage',
      output: page(1, 1, [notification(1, 1), notification(2)]),
    });
    actor.send({ type: 'item.opened', key: 2 });
    expect(actor.getSnapshot().context.items.find((i) => i.id === 2)).toMatchObject({ viewed: 1 });
    await flush();
    expect(counts).toEqual([{ type: 'notification.opened', id: 2 }]);
    // a read notification opened (again) asks nothing
    actor.send({ type: 'item.opened', key: 2 });
    actor.send({ type: 'item.opened', key: 1 });
    await flush();
    expect(counts).toHaveLength(1);
  });
});
