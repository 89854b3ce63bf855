import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { type SellerLevel, type SellerLevels, sellerPanelMachine } from './seller-panel.machine';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';

const level = (n: number, active: 0 | 1): SellerLevel => ({
  level: n,
  name: `Level ${n}`,
  is_active: active,
  quarterly_gtv: n * 1_000_000,
  benefits: [{ name: 'Priority support', available: n > 1 ? 1 : 0 }],
});
const summary: SellerLevels['summary'] = {
  level: 'Level 2',
  level_number: 2,
  quarter: 'Q4 2026',
  days_left: 38,
  currency: 'GBP',
  gtv: 1_250_000,
  required_to_maintain: 2_000_000,
  forecast: { projected_gtv: 2_100_000, projected_level: 2, next_level: 3, required_for_next_level: 900_000 },
};
/** The seller is at the middle level: the carousel opens there, with a level on either side. */
const middle: SellerLevels = { summary, levels: [level(1, 0), level(2, 1), level(3, 0)] };
/** No level is marked active (a new seller): the carousel opens at the first. */
const none: SellerLevels = { summary, levels: [level(1, 0), level(2, 0), level(3, 0)] };
const activeOf = (data: SellerLevels) =>
  Math.max(
    0,
    data.levels.findIndex((l) => l.is_active === 1),
  );

const events = [
  { type: 'panel.toggled' },
  { type: 'panel.closed' },
  { type: 'panel.retried' },
  { type: 'level.next' },
  { type: 'level.previous' },
  { type: 'xstate.done.actor.loadLevels', output: middle },
  { type: 'xstate.done.actor.loadLevels', output: none },
  { type: 'xstate.error.actor.loadLevels', error: new Error('offline') },
];

describe('seller panel statechart, model-based', () => {
  const paths = modelPaths(sellerPanelMachine, {
    events,
    // what the guards read (the level shown: both samples have three levels), and where the carousel opened
    identity: (s) =>
      s.matches({ open: 'shown' }) && s.context.data ? [s.value, s.context.index, activeOf(s.context.data)] : s.value,
    invariant:
      'the levels load each time the panel opens; the carousel opens at the active level (the first when none is) and Previous and Next move one level within the three',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(sellerPanelMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = startWithStandIns(sellerPanelMachine, { settled: ['loadLevels'] });
      let shownData: SellerLevels | null = null;
      let at = 0;
      await replay(
        path,
        run.actor,
        (event: EventObject) => {
          const before = run.actor.getSnapshot();
          if (event.type === 'xstate.done.actor.loadLevels') {
            shownData = (event as EventObject & { output: SellerLevels }).output;
            at = activeOf(shownData);
          }
          if (before.matches({ open: 'shown' }) && shownData) {
            if (event.type === 'level.next' && at < shownData.levels.length - 1) at++;
            if (event.type === 'level.previous' && at > 0) at--;
          }
          return run.perform(event);
        },
        (real) => {
          const { context } = real;
          if (real.matches({ open: 'loading' })) {
            // a load runs each time the panel opens or is retried
            expect(run.control.isPending('loadLevels')).toBe(true);
            expect(real.hasTag('loading')).toBe(true);
          }
          if (real.matches({ open: 'shown' })) {
            expect(context.data).toEqual(shownData);
            expect(context.index).toBe(at);
            expect(real.can({ type: 'level.previous' })).toBe(at > 0);
            expect(real.can({ type: 'level.next' })).toBe(at < 2);
          }
          if (real.matches({ open: 'failed' })) expect(real.hasTag('error')).toBe(true);
          if (real.matches('closed')) expect(real.hasTag('loading') || real.hasTag('error')).toBe(false);
          expect(context.index).toBeGreaterThanOrEqual(0);
          expect(context.index).toBeLessThan(3);
        },
      );
      await run.stop();
    });
  }
});

describe('seller panel statechart, examples', () => {
  it('loads the levels again each time it opens, and opens the carousel at the active level again', async () => {
    const run = startWithStandIns(sellerPanelMachine, { settled: ['loadLevels'] });
    run.actor.send({ type: 'panel.toggled' });
    await run.perform({ type: 'xstate.done.actor.loadLevels', output: none } as EventObject);
    run.actor.send({ type: 'level.next' });
    run.actor.send({ type: 'level.next' });
    expect(run.actor.getSnapshot().context.index).toBe(2);
    run.actor.send({ type: 'panel.closed' });
    run.actor.send({ type: 'panel.toggled' });
    expect(run.actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(run.control.isPending('loadLevels')).toBe(true);
    await run.perform({ type: 'xstate.done.actor.loadLevels', output: middle } as EventObject);
    expect(run.actor.getSnapshot().context).toEqual({ data: middle, index: 1 });
    await run.stop();
  });
});
