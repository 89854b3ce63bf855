import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../../openapi/client';
import type { Country } from '../reference-api';

export type PriceCap = DataOf<'/admin/price-caps', 'get'>['caps'][number];

/** A change the operator asked for, waiting for the confirmation: the cap as it would be, and where it applies. */
export interface CapProposal {
  scope: 'country' | 'event';
  /** the country's or the event's id */
  id: number;
  /** the country's or the event's name */
  market: string;
  markup_bps: number;
  active: 0 | 1;
}

export interface PriceCapsContext {
  caps: PriceCap[];
  countries: Country[];
  /** the change the confirmation restates (and, while saving, the one being saved) */
  proposal: CapProposal | null;
  /** why the last save was refused (shown in the confirmation) */
  problem: string | null;
  /** the last cap saved (the page says so beside it) */
  saved: PriceCap | null;
}

export type PriceCapsEvent =
  | { type: 'cap.proposed'; proposal: CapProposal }
  | { type: 'proposal.confirmed' }
  | { type: 'proposal.cancelled' }
  | { type: 'list.retried' };

/** The cap in words, as the server writes it: 'face value' or 'face value plus 10%'. */
export const ruleOf = (markupBps: number) =>
  markupBps === 0 ? 'face value' : `face value plus ${(markupBps / 100).toFixed(2).replace(/\.00$/, '')}%`;

/** What a proposal will change, in a sentence the confirmation shows. */
export function restate(p: CapProposal): string {
  const where = p.scope === 'country' ? `events in ${p.market}` : p.market;
  if (p.active === 0) return `The cap on listings for ${where} (${ruleOf(p.markup_bps)}) will no longer apply.`;
  return `Listings for ${where} may then cost at most ${ruleOf(p.markup_bps)}. Listings already on sale are not changed.`;
}

/**
 * The back office's resale price caps: every cap (per country or per event, active or not) and the countries a
 * new one may name. Adding a cap, changing its markup and turning it off or on are each a proposal the page
 * restates and the operator confirms; a refused save says why in the confirmation; a failed read offers Retry.
 */
export const priceCapsMachine = setup({
  types: {
    context: {} as PriceCapsContext,
    events: {} as PriceCapsEvent,
  },
  actors: {
    loadCaps: fromPromise<{ caps: PriceCap[]; countries: Country[] }>(async ({ signal }) => {
      const [caps, countries] = await Promise.all([
        api.GET('/admin/price-caps', { signal }),
        api.GET('/countries', { signal }),
      ]);
      return { caps: unwrap(caps).caps, countries: unwrap(countries) };
    }),
    saveCap: fromPromise<PriceCap, CapProposal>(async ({ input }) =>
      unwrap(
        await api.PUT('/admin/price-caps', {
          body: {
            ...(input.scope === 'country' ? { country_id: input.id } : { event_id: input.id }),
            markup_bps: input.markup_bps,
            active: input.active,
          },
        }),
      ),
    ),
  },
  actions: {
    keepList: assign((_, loaded: { caps: PriceCap[]; countries: Country[] }) => ({
      caps: loaded.caps,
      countries: loaded.countries,
    })),
    keepProposal: assign({ proposal: (_, p: CapProposal) => p, problem: null, saved: null }),
    dropProposal: assign({ proposal: null, problem: null }),
    keepSaved: assign({
      caps: ({ context }, cap: PriceCap) =>
        context.caps.some((c) => c.id === cap.id)
          ? context.caps.map((c) => (c.id === cap.id ? cap : c))
          : [...context.caps, cap],
      saved: (_, cap: PriceCap) => cap,
      proposal: null,
      problem: null,
    }),
    clearProblem: assign({ problem: null }),
    keepProblem: assign({ problem: (_, message: string) => message }),
  },
}).createMachine({
  id: 'priceCaps',
  description:
    'The back office sets resale price caps per country or event; each change is restated and confirmed first.',
  context: { caps: [], countries: [], proposal: null, problem: null, saved: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadCaps',
        src: 'loadCaps',
        onDone: { target: 'ready', actions: { type: 'keepList', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: {
      tags: ['error'],
      description: 'The caps or the countries could not be read: Retry reads them again.',
      on: { 'list.retried': 'loading' },
    },
    ready: {
      on: {
        'cap.proposed': {
          target: 'confirming',
          actions: { type: 'keepProposal', params: ({ event }) => event.proposal },
        },
      },
    },
    confirming: {
      description: 'The change is restated; Confirm saves it, Cancel leaves the caps as they were.',
      on: {
        'proposal.confirmed': { target: 'saving', actions: 'clearProblem' },
        'proposal.cancelled': { target: 'ready', actions: 'dropProposal' },
      },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        id: 'saveCap',
        src: 'saveCap',
        input: ({ context }) =>
          context.proposal ?? { scope: 'country', id: 0, market: '', markup_bps: 0, active: 1 as const },
        onDone: { target: 'ready', actions: { type: 'keepSaved', params: ({ event }) => event.output } },
        onError: {
          target: 'confirming',
          actions: { type: 'keepProblem', params: ({ event }) => messageOf(event.error, 'The cap was not saved.') },
        },
      },
    },
  },
});
