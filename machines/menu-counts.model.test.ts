import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { badgeText, menuCountsMachine, type SalesCount, salesLandingStatus } from './menu-counts.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const counts = { notification: 45, activity: 46, unread_count: 15 };
const sales: SalesCount[] = [
  { status: 'pending', orders: 0 },
  { status: 'confirmed', orders: 4 },
];
const events = [
  { type: 'xstate.done.actor.loadSalesCounts', output: sales },
  { type: 'xstate.error.actor.loadSalesCounts', error: new Error('down') },
  { type: 'xstate.done.actor.loadNotificationCounts', output: counts },
  { type: 'xstate.error.actor.loadNotificationCounts', error: new Error('down') },
  { type: 'unread.changed', unreadCount: 14 },
  { type: 'notification.opened', id: 3 },
  { type: 'counts.refreshed' },
];
const inputs = [
  { canSeeSales: true, canSeeNotifications: true },
  { canSeeSales: false, canSeeNotifications: false },
];

describe('menu counts statechart, model-based', () => {
  const all = inputs.map((input) => ({ input, paths: modelPaths(menuCountsMachine, { events, input }) }));

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(
      menuCountsMachine,
      all.flatMap((a) => a.paths),
    );
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const { input, paths } of all) {
    for (const path of paths) {
      it(`${JSON.stringify(input)} ${path.description}`, async () => {
        const control = controllableActors(['loadSalesCounts', 'loadNotificationCounts', 'markViewed'] as const);
        const actor = createActor(menuCountsMachine.provide({ actors: control.actors }), { input }).start();
        let opened = false;
        const perform = async (e: { type: string }) => {
          opened ||= e.type === 'notification.opened';
          return control.settle(e);
        };
        await replay(path, actor, perform, (real) => {
          if (!input.canSeeSales) expect(real.matches({ sales: 'hidden' })).toBe(true);
          if (!input.canSeeNotifications) expect(real.matches({ notifications: 'hidden' })).toBe(true);
          if (real.matches({ sales: 'ready' })) expect(real.context.sales).toEqual(sales);
          // an opened notification is being marked read on the server
          if (!opened) return;
          expect(control.pending('markViewed')?.input).toMatchObject({ id: 3 });
        });
      });
    }
  }
});

describe('menu counts statechart', () => {
  it("marks an opened notification read and takes the server's unread count for the badge", async () => {
    const marked: number[] = [];
    const actor = createActor(
      menuCountsMachine.provide({
        actors: {
          loadSalesCounts: fromPromise(async () => sales),
          loadNotificationCounts: fromPromise(async () => counts),
          markViewed: fromPromise(async ({ input }: { input: { id: number; counts: { send(e: unknown): void } } }) => {
            marked.push(input.id);
            input.counts.send({ type: 'unread.changed', unreadCount: 14 });
          }) as never,
        },
      }),
      { input: inputs[0] },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.notifications?.unread_count).toBe(15);
    actor.send({ type: 'notification.opened', id: 3 });
    await new Promise((r) => setTimeout(r, 0));
    expect(marked).toEqual([3]);
    expect(actor.getSnapshot().context.notifications?.unread_count).toBe(14);
  });
});

describe('menu rules', () => {
  it('a collapsed Sales leads to the first sub-page with orders, else pending', () => {
    expect(salesLandingStatus(sales)).toBe('confirmed');
    expect(salesLandingStatus([{ status: 'replaced', orders: 2 }])).toBe('replaced');
    expect(salesLandingStatus([])).toBe('pending');
    expect(
      salesLandingStatus([
        { status: 'pending', orders: 1 },
        { status: 'confirmed', orders: 9 },
      ]),
    ).toBe('pending');
  });

  it('caps badges at 10+ only when collapsed, and hides zero', () => {
    expect(badgeText(11, true)).toBe('10+');
    expect(badgeText(10, true)).toBe('10');
    expect(badgeText(11, false)).toBe('11');
    expect(badgeText(0, true)).toBeNull();
  });
});
