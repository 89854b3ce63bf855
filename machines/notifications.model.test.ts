import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  type FeedPage,
  FILL_CHECK_MS,
  type NotificationItem,
  notificationsMachine,
  SCROLL_DEBOUNCE_MS,
} from './notifications.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const item = (id: number): NotificationItem => ({
  id,
  name: 'new_order',
  description: `Order ${id}`,
  viewed: 0,
  created_at: '2026-11-20T10:00:00Z',
});
const page = (n: number, last: number, ids: number[]): FeedPage => ({
  items: ids.map(item),
  currentPage: n,
  lastPage: last,
});

const events = [
  { type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) },
  { type: 'xstate.done.actor.fetchPage', output: page(3, 3, [5, 6]) },
  { type: 'xstate.done.actor.fetchPage', output: page(1, 1, []) },
  { type: 'xstate.error.actor.fetchPage', error: new Error('Failed to load notifications') },
  { type: 'tab.selected', tab: 'activity' },
  { type: 'tab.selected', tab: 'notifications' },
  { type: 'panel.scrolled', distanceFromBottom: 20 },
  { type: 'panel.scrolled', distanceFromBottom: 400 },
  { type: 'panel.measured', fillsPanel: false },
  { type: 'panel.measured', fillsPanel: true },
  { type: 'notification.opened', id: 1 },
  { type: 'notification.marked', id: 1, unreadCount: 4 },
];

const DELAYS: Record<string, number> = { fillCheck: FILL_CHECK_MS, scrollDebounce: SCROLL_DEBOUNCE_MS };

describe('notifications paging statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(notificationsMachine, { events, input: { tab: 'notifications' } });

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(notificationsMachine, paths);
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['fetchPage', 'markViewed'] as const);
      const actor = createActor(notificationsMachine.provide({ actors: control.actors }), {
        input: { tab: 'notifications' },
      });
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
      actor.start();
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('after.')) {
            await vi.advanceTimersByTimeAsync(DELAYS[event.type.slice('after.'.length)] ?? 0);
            return true;
          }
          if (event.type === 'xstate.done.actor.fetchPage' || event.type === 'xstate.error.actor.fetchPage') {
            // the page asked for: 1 for a tab's first page, else the one after the last loaded
            const asked = control.pending('fetchPage')?.input as { page: number } | undefined;
            const now = actor.getSnapshot();
            expect(asked?.page).toBe(now.matches('loadingFirst') ? 1 : now.context.page + 1);
          }
          return control.settle(event);
        },
        (real) => {
          const { context } = real;
          // what each state promises the views
          if (real.matches('loadingFirst')) expect(context.items).toEqual([]);
          if (real.matches('loadingMore')) expect(context.page).toBeGreaterThanOrEqual(1);
          if (real.matches('complete')) expect(context.page).toBeGreaterThanOrEqual(context.lastPage);
          if (real.matches('more')) expect(context.page).toBeLessThan(context.lastPage);
          if (real.matches('empty')) expect(context.items).toEqual([]);
          if (real.hasTag('error')) {
            expect(context.error).toBe(
              context.tab === 'notifications' ? 'Failed to load notifications' : 'Failed to load activity',
            );
          }
          expect(new Set(context.items.map((i: { id: number }) => i.id)).size).toBe(context.items.length);
          // only the notifications tab toasts its failures (the activity log shows its message in place)
          expect(toasts.every((t) => t === 'Failed to load notifications')).toBe(true);
          if (real.hasTag('error') && context.tab === 'notifications') expect(toasts.length).toBeGreaterThan(0);
        },
      );
      consoleError.mockRestore();
      actor.stop();
      await flush();
    });
  }
});

describe('notifications paging statechart', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(tab: 'notifications' | 'activity' = 'notifications') {
    const control = controllableActors(['fetchPage', 'markViewed'] as const);
    const actor = createActor(notificationsMachine.provide({ actors: control.actors }), { input: { tab } });
    const emitted: unknown[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    return { actor, control, emitted };
  }

  it('asks for the next page only after scrolling has paused 100 ms within 50 px of the bottom', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    await vi.advanceTimersByTimeAsync(FILL_CHECK_MS);
    actor.send({ type: 'panel.measured', fillsPanel: true });
    actor.send({ type: 'panel.scrolled', distanceFromBottom: 30 });
    await vi.advanceTimersByTimeAsync(60);
    actor.send({ type: 'panel.scrolled', distanceFromBottom: 10 });
    await vi.advanceTimersByTimeAsync(60);
    expect(control.isPending('fetchPage')).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    expect(control.pending('fetchPage')?.input).toEqual({ tab: 'notifications', page: 2 });
  });

  it('does not load more when the pause happens farther than 50 px from the bottom', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    actor.send({ type: 'panel.scrolled', distanceFromBottom: 51 });
    await vi.advanceTimersByTimeAsync(500);
    expect(actor.getSnapshot().matches({ more: 'waiting' })).toBe(true);
  });

  it('loads more 200 ms after a page when the list does not fill the panel', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 2, [1]) });
    await vi.advanceTimersByTimeAsync(FILL_CHECK_MS - 1);
    expect(actor.getSnapshot().hasTag('measure')).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().hasTag('measure')).toBe(true);
    actor.send({ type: 'panel.measured', fillsPanel: false });
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(2, 2, [2]) });
    expect(actor.getSnapshot().value).toBe('complete');
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([1, 2]);
  });

  it('switching tabs starts again at page 1', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 3, [1, 2]) });
    actor.send({ type: 'tab.selected', tab: 'activity' });
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(control.pending('fetchPage')?.input).toEqual({ tab: 'activity', page: 1 });
  });

  it("toasts 'Failed to load notifications' but only logs the activity failure", async () => {
    const first = start('notifications');
    await first.control.settle({ type: 'xstate.error.actor.fetchPage', error: new Error('x') });
    expect(first.emitted).toContainEqual({ type: 'notify', level: 'error', message: 'Failed to load notifications' });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const second = start('activity');
    await second.control.settle({ type: 'xstate.error.actor.fetchPage', error: new Error('x') });
    expect(second.emitted.filter((e) => (e as { type: string }).type === 'notify')).toEqual([]);
    expect(second.actor.getSnapshot().context.error).toBe('Failed to load activity');
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('opening an unread notification marks it read at once and announces the new unread count', async () => {
    const { actor, control, emitted } = start();
    await control.settle({ type: 'xstate.done.actor.fetchPage', output: page(1, 1, [1, 2]) });
    actor.send({ type: 'notification.opened', id: 2 });
    expect(actor.getSnapshot().context.items.find((i) => i.id === 2)).toMatchObject({ viewed: 1 });
    expect((control.pending('markViewed')?.input as { id: number } | undefined)?.id).toBe(2);
    await control.settle({ type: 'xstate.done.actor.markViewed', output: undefined });
    actor.send({ type: 'notification.marked', id: 2, unreadCount: 7 });
    expect(emitted).toContainEqual({ type: 'unread.changed', unreadCount: 7 });
    // a read notification opened again asks nothing of the server
    actor.send({ type: 'notification.opened', id: 2 });
    expect(control.isPending('markViewed')).toBe(false);
  });
});
