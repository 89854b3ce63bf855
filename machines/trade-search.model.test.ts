import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';
import { type TradeEvent, type TradeRead, type TradeReadData, tradeReadMachine } from './trade-search.machine';

const match: TradeEvent = {
  match_id: 7,
  match_name: 'Arsenal vs Chelsea',
  home_team: 'Arsenal',
  away_team: 'Chelsea',
  tournament: 'Premier League',
  match_date: '2027-01-10',
  match_time: '15:00',
  stadium_name: 'Emirates Stadium',
  city_name: 'London',
  country_name: 'United Kingdom',
  tickets_available: 12,
  listings_count: 3,
  min_price: 9_900,
  currency: 'GBP',
};

/** Each read a page shows, with what the server answers for it. */
const READS: Array<{ input: TradeRead; output: TradeReadData[TradeRead['kind']] }> = [
  { input: { kind: 'event', matchId: 7, currency: 'GBP' }, output: { event: match, guestFields: [] } },
  { input: { kind: 'recentlyViewed', currency: 'EUR' }, output: [{ ...match, currency: 'EUR' }] },
  // the purchase success page of a booking the server does not know (yet)
  { input: { kind: 'booking', bookingNo: 'BK-000042' }, output: null },
];

// The list machines of this file (tradeSearch, eventTickets, purchaseHistory) are createListMachine's
// statechart, whose every state and transition list.model.test.ts covers; this file covers tradeRead.
describe('trade read statechart, model-based', () => {
  for (const [n, { input, output }] of READS.entries()) {
    describe(`${input.kind} read`, () => {
      const events = [
        { type: 'xstate.done.actor.load', output },
        { type: 'xstate.error.actor.load', error: new Error('offline') },
        { type: 'read.retried' },
      ];
      const paths = modelPaths(tradeReadMachine, {
        events,
        input,
        story: n === 0 ? '' : `${input.kind} read`,
        invariant:
          'the read asked for is the one the page gave; what shows is what the server answered, nothing while loading or after a failure',
      });

      it('the generated paths reach every state and every transition', () => {
        expect(uncovered(tradeReadMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
      });

      for (const path of paths) {
        it(path.description, async () => {
          const run = startWithStandIns(tradeReadMachine, { settled: ['load'], input });
          await replay(
            path,
            run.actor,
            (event: EventObject) => run.perform(event),
            (real) => {
              expect(real.context.input).toEqual(input);
              if (real.matches('loading')) {
                expect(run.control.pending('load')?.input).toEqual(input);
                expect(real.hasTag('loading')).toBe(true);
              } else expect(run.control.isPending('load')).toBe(false);
              if (real.matches('shown')) expect(real.context.data).toEqual(output);
              else expect(real.context.data).toBeNull();
              expect(real.hasTag('error')).toBe(real.matches('failed'));
              if (real.matches('failed')) expect(real.can({ type: 'read.retried' })).toBe(true);
            },
          );
          await run.stop();
        });
      }
    });
  }
});
