import { describe, expect, it } from 'vitest';
import { ApiError } from '../../openapi/client';
import { modelPaths, replay, uncovered } from '../testing/model';
import { startWithStandIns } from '../testing/stand-ins';
import {
  type CapProposal,
  type PriceCap,
  type PriceCapsContext,
  priceCapsMachine,
  restate,
} from './price-caps.machine';

const cap = (id: number, markup: number, active: 0 | 1): PriceCap => ({
  id,
  scope: 'country',
  country_id: 44,
  event_id: null,
  market: 'England',
  markup_bps: markup,
  rule: markup === 0 ? 'face value' : `face value plus ${markup / 100}%`,
  active,
  updated_at: '2026-11-28T10:00:00.000Z',
});
const england = { id: 44, name: 'England', short_name: 'GB', dialing_code: '+44', phone_code: 44 };
const proposal: CapProposal = { scope: 'country', id: 44, market: 'England', markup_bps: 1000, active: 1 };

const events = [
  { type: 'cap.proposed', proposal },
  { type: 'proposal.confirmed' },
  { type: 'proposal.cancelled' },
  { type: 'list.retried' },
  { type: 'xstate.done.actor.loadCaps', output: { caps: [cap(1, 0, 0)], countries: [england] } },
  { type: 'xstate.error.actor.loadCaps', error: new ApiError(500, 'Server error') },
  { type: 'xstate.done.actor.saveCap', output: cap(1, 1000, 1) },
  { type: 'xstate.error.actor.saveCap', error: new ApiError(404, 'Country not found.') },
];

const identity = ({ value, context }: { value: unknown; context: PriceCapsContext }) => [
  value,
  context.caps.map((c) => [c.markup_bps, c.active]),
  context.proposal?.id ?? null,
  context.problem,
  context.saved?.id ?? null,
];

describe('the back office price caps statechart, model-based', () => {
  const paths = modelPaths(priceCapsMachine, {
    events,
    identity,
    invariant:
      'the list shows the caps last read or saved; a change is saved only after its confirmation; a refusal is said in the confirmation',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(priceCapsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('restates a change in words', () => {
    expect(restate(proposal)).toBe(
      'Listings for events in England may then cost at most face value plus 10%. Listings already on sale are not changed.',
    );
    expect(restate({ ...proposal, scope: 'event', market: 'Arsenal vs Chelsea', markup_bps: 1050 })).toMatch(
      /^Listings for Arsenal vs Chelsea may then cost at most face value plus 10\.50%\./,
    );
    expect(restate({ ...proposal, markup_bps: 0, active: 0 })).toBe(
      'The cap on listings for events in England (face value) will no longer apply.',
    );
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = startWithStandIns(priceCapsMachine, { settled: ['loadCaps', 'saveCap'] });
      await replay(
        path,
        run.actor,
        (e) => run.perform(e),
        (real) => {
          expect(real.hasTag('loading')).toBe(real.matches('loading'));
          expect(real.hasTag('error')).toBe(real.matches('failed'));
          expect(run.control.isPending('loadCaps')).toBe(real.matches('loading'));
          expect(run.control.isPending('saveCap')).toBe(real.matches('saving'));
          // a proposal is held exactly while it is restated or saved
          expect(real.context.proposal !== null).toBe(real.matches('confirming') || real.matches('saving'));
          if (real.context.saved) {
            expect(real.context.caps.find((c: PriceCap) => c.id === real.context.saved?.id)).toEqual(
              real.context.saved,
            );
          }
          if (real.context.problem) expect(real.matches('confirming')).toBe(true);
        },
      );
      await run.stop();
    });
  }
});
