import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { REFERRALS_LOAD_ERROR, type ReferralSummary, referralsMachine } from './referrals.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const summary: ReferralSummary = {
  referral_code: 'SBSELL24',
  signup_path: '/signup?ref=SBSELL24',
  program: { share_bps: 2000, service_fee_bps: 1000, months: 12 },
  earned: [{ currency: 'GBP', amount: 1234 }],
};

const events = [
  { type: 'summary.retried' },
  { type: 'xstate.done.actor.loadSummary', output: summary },
  { type: 'xstate.error.actor.loadSummary', error: new ApiError(500, REFERRALS_LOAD_ERROR) },
];

describe('settings › referrals statechart, model-based', () => {
  const paths = modelPaths(referralsMachine, { events, settling: ['loadSummary'] });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(referralsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['referredList', 'referralBookingList', 'loadSummary'] as const);
      const actor = createActor(referralsMachine.provide({ actors: control.actors }));
      actor.start();
      // both lists start with the page, whatever the head does
      expect(control.isPending('referredList')).toBe(true);
      expect(control.isPending('referralBookingList')).toBe(true);
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          if (real.matches('ready')) expect(real.context.summary?.referral_code).toBe('SBSELL24');
          if (real.matches('loading')) expect(control.isPending('loadSummary')).toBe(true);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
