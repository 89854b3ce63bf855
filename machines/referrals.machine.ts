import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { createListMachine, fromPageMeta } from './list.machine';

export type ReferredPerson = components['schemas']['ReferredPerson'];
export type ReferralBooking = components['schemas']['ReferralBooking'];
type History = DataOf<'/settings/referral-history', 'get'>;
/** The code, its sign-up path, the programme's rule and what was earned: the page's head. */
export type ReferralSummary = Omit<History, 'referrals' | 'meta'>;

/** The spec's default toast for a failed read (section 8). */
export const REFERRALS_LOAD_ERROR = 'Failed to fetch data';

/** The people who signed up with the code, 10 a page (numbered paging). */
export const referredListMachine = createListMachine<ReferredPerson, Record<string, never>>({
  id: 'referredList',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(
      await api.GET('/settings/referral-history', { params: { query: { page } }, signal }),
      REFERRALS_LOAD_ERROR,
    );
    return fromPageMeta(data.referrals, data.meta);
  },
  keyOf: (r) => r.id,
  errorMessage: () => REFERRALS_LOAD_ERROR,
  toastsErrors: () => true,
});

/** Their confirmed bookings with what each earned, 10 a page (numbered paging). */
export const referralBookingListMachine = createListMachine<ReferralBooking, Record<string, never>>({
  id: 'referralBookingList',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(
      await api.GET('/settings/referral-bookings', { params: { query: { page } }, signal }),
      REFERRALS_LOAD_ERROR,
    );
    return fromPageMeta(data.bookings, data.meta);
  },
  keyOf: (b) => b.id,
  errorMessage: () => REFERRALS_LOAD_ERROR,
  toastsErrors: () => true,
});

export interface ReferralsContext {
  summary: ReferralSummary | null;
}

export type ReferralsEvent = { type: 'summary.retried' };

/**
 * Settings › Referrals: the head (the code, the link to share, the rule and what was earned) and two paged
 * lists on the shared list machine, the people referred (child `referredList`) and their bookings (child
 * `referralBookingList`), each with its own Retry. The lists toast 'Failed to fetch data'; the head shows it in
 * place, so one failure is toasted once.
 */
export const referralsMachine = setup({
  types: {
    context: {} as ReferralsContext,
    events: {} as ReferralsEvent,
  },
  actors: {
    referredList: referredListMachine,
    referralBookingList: referralBookingListMachine,
    loadSummary: fromPromise<ReferralSummary>(async ({ signal }) => {
      const {
        referrals: _people,
        meta: _meta,
        ...summary
      } = unwrap(
        await api.GET('/settings/referral-history', { params: { query: { page: 1 } }, signal }),
        REFERRALS_LOAD_ERROR,
      );
      return summary;
    }),
  },
  actions: {
    storeSummary: assign((_, summary: ReferralSummary) => ({ summary })),
  },
}).createMachine({
  id: 'referrals',
  context: { summary: null },
  invoke: [
    { id: 'referredList', systemId: 'referredList', src: 'referredList', input: { filters: {} } },
    { id: 'referralBookingList', systemId: 'referralBookingList', src: 'referralBookingList', input: { filters: {} } },
  ],
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSummary',
        src: 'loadSummary',
        onDone: { target: 'ready', actions: { type: 'storeSummary', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: {
      description: "'Failed to fetch data' in place of the code, with Retry (the lists have their own).",
      tags: ['error'],
      on: { 'summary.retried': 'loading' },
    },
    ready: { description: 'The code, the link to copy, the rule and the totals.' },
  },
});
