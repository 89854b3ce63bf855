import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { badgeText, menuCountsMachine, salesLandingStatus } from './menu-counts.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const counts = { notification: 45, activity: 46, unread_count: 15 };
const sales = [
  { status: 'pending' as const, orders: 0 },
  { status: 'confirmed' as const, orders: 4 },
];
const events = [
  { type: 'xstate.done.actor.loadSalesCounts', output: sales },
  { type: 'xstate.error.actor.loadSalesCounts', error: new Error('down') },
  { type: 'xstate.done.actor.loadNotificationCounts', output: counts },
  { type: 'xstate.error.actor.loadNotificationCounts', error: new Error('down') },
  { type: 'unread.changed', unreadCount: 14 },
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
        const control = controllableActors(['loadSalesCounts', 'loadNotificationCounts'] as const);
        const actor = createActor(menuCountsMachine.provide({ actors: control.actors }), { input }).start();
        await replay(path, actor, control.settle, (real) => {
          if (!input.canSeeSales) expect(real.matches({ sales: 'hidden' })).toBe(true);
          if (!input.canSeeNotifications) expect(real.matches({ notifications: 'hidden' })).toBe(true);
          if (real.matches({ sales: 'ready' })) expect(real.context.sales).toEqual(sales);
        });
      });
    }
  }
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
