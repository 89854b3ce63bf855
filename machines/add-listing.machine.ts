import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { createFormMachine, type FormEvent } from './form.machine';
import { createListMachine } from './list.machine';
import {
  type AdditionalTemplate,
  type BlockDetails,
  type CatalogueMatch,
  type CreatedListing,
  type CurrencyCode,
  EVENT_REQUEST_EMPTY,
  type EventRequest,
  eventRequestSchema,
  FETCH_FAILED,
  fetchCatalogueMatches,
  type InsightQuery,
  type ListingValues,
  listingSchema,
  loadBlockDetails,
  loadEventRequests,
  loadMarketInsights,
  loadTemplates,
  type MarketInsights,
  type MatchSearchFilters,
  saveListing,
  sendEventRequest,
} from './listings-api';
import { type NotifyEvent, notifyError } from './notify';

export type {
  AdditionalTemplate,
  BlockDetails,
  CatalogueMatch,
  CreatedListing,
  EventRequest,
  InsightQuery,
  ListingValues,
  MarketInsights,
  MatchSearchFilters,
};

/** How long the price must rest before the market is asked where it ranks. */
export const INSIGHTS_DEBOUNCE_MS = 400;
export const BLOCKS_FAILED = 'Failed to load the stadium blocks';
export const LISTING_CREATED = 'Listing created';

export const emptyMatchSearch = (): MatchSearchFilters => ({ q: '', date_from: null, date_to: null });

/** Add Inventory's match search: upcoming matches of the catalogue by name, team, competition and date. */
export const matchSearchMachine = createListMachine<CatalogueMatch, MatchSearchFilters>({
  id: 'matchSearch',
  fetchPage: (request, signal) => fetchCatalogueMatches(request, signal),
  keyOf: (match) => match.match_id,
  errorMessage: () => FETCH_FAILED,
  toastsErrors: () => true,
});

/** The listing form on the shared form machine: the contract's checks, the server's 422 under the fields. */
export const listingFormMachine = createFormMachine({
  id: 'listingForm',
  schema: listingSchema,
  submit: (body, signal) => saveListing(body, signal),
});

/** 'Request an event' on the shared form machine: name, date and venue of the missing match. */
export const eventRequestFormMachine = createFormMachine({
  id: 'eventRequestForm',
  schema: eventRequestSchema,
  submit: (body, signal) => sendEventRequest(body, signal),
});

/** The listing form's fields before anything is typed, for a match (numbers stay unset until typed). */
export function emptyListing(match: CatalogueMatch, currency: CurrencyCode): ListingValues {
  return {
    match_id: match.match_id,
    category: '',
    ticket_block: '',
    row: '',
    seats: '',
    ticket_type_id: undefined as unknown as number,
    quantity: undefined as unknown as number,
    split_type: 'any',
    price: undefined as unknown as number,
    face_value: undefined,
    currency,
    restrictions: '',
    notes: '',
    additional_template_ids: '',
    files: [],
  };
}

export interface AddListingInput {
  /** The currency the form starts in (the seller's own). */
  currency?: CurrencyCode | null;
}

export interface AddListingContext {
  currency: CurrencyCode;
  match: CatalogueMatch | null;
  blocks: BlockDetails | null;
  /** The form's category, price and quantity as typed (what the market is asked about). */
  draft: Record<string, unknown>;
  /** What the market was last asked about, and its answer. */
  query: InsightQuery | null;
  insights: MarketInsights | null;
  created: CreatedListing | null;
  requests: EventRequest[];
  /** The seller's additional templates (Settings › Templates), offered to the listing. */
  templates: AdditionalTemplate[];
}

export type AddListingEvent =
  | { type: 'match.chosen'; match: CatalogueMatch }
  | { type: 'match.cleared' }
  | { type: 'blocks.retried' }
  | { type: 'listing.changed'; field: keyof ListingValues & string; value: unknown }
  | { type: 'listing.submitted' }
  | { type: 'listing.another' }
  | { type: 'insights.retried' }
  | { type: 'request.opened' }
  | { type: 'request.closed' }
  | { type: 'templates.retried' };

const INSIGHT_FIELDS = new Set(['category', 'price', 'quantity', 'currency', 'face_value']);

/** What the market is asked for the form's values, or null while category or price is missing. */
export function insightQueryOf(match: CatalogueMatch | null, values: Record<string, unknown>): InsightQuery | null {
  const price = values.price;
  const category = values.category;
  if (!match || typeof price !== 'number' || price <= 0 || typeof category !== 'string' || !category) return null;
  return {
    match_id: match.match_id,
    category,
    price,
    currency: (values.currency as CurrencyCode | undefined) ?? 'GBP',
    ...(typeof values.quantity === 'number' && values.quantity > 0 ? { quantity: values.quantity } : {}),
    // the resale caps are checked against it
    ...(typeof values.face_value === 'number' && values.face_value > 0 ? { face_value: values.face_value } : {}),
  };
}

/** A change of category, price or quantity: the market is asked again once the typing rests, or not at all. */
const priceTyped = [
  {
    guard: 'asksMarket',
    target: '#addListing.insights.waiting',
    reenter: true,
    actions: ['trackDraft', 'storeQuery'],
  },
  { guard: 'clearsQuery', target: '#addListing.insights.idle', actions: 'clearInsights' },
] as const;

/**
 * Add Inventory (/add-listings): the seller finds the match (a search of the catalogue, the `matchSearch` list),
 * the stadium's categories and blocks load, and the listing form opens (the shared form machine, `listingForm`).
 * While the price is typed, the market answers what the seller receives after fees and where the price ranks
 * among the other sellers' listings of the category. The seller's additional templates (Settings › Templates) load
 * beside the form to be picked for the listing. A saved listing shows with 'Add another'. When the match is
 * missing, 'Request an event' sends its name, date and venue, and the seller's requests show with their status.
 */
export const addListingMachine = setup({
  types: {
    context: {} as AddListingContext,
    input: {} as AddListingInput,
    events: {} as AddListingEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    matchSearch: matchSearchMachine,
    listingForm: listingFormMachine,
    eventRequestForm: eventRequestFormMachine,
    loadBlocks: fromPromise<BlockDetails, { matchId: number }>(({ input, signal }) =>
      loadBlockDetails(input.matchId, signal),
    ),
    loadInsights: fromPromise<MarketInsights, InsightQuery>(({ input, signal }) => loadMarketInsights(input, signal)),
    loadRequests: fromPromise<EventRequest[]>(({ signal }) => loadEventRequests(signal)),
    loadTemplates: fromPromise<AdditionalTemplate[]>(({ signal }) => loadTemplates(signal)),
  },
  delays: { insightsDebounce: INSIGHTS_DEBOUNCE_MS },
  guards: {
    asksMarket: ({ context, event }) =>
      event.type === 'listing.changed' &&
      INSIGHT_FIELDS.has(event.field) &&
      insightQueryOf(context.match, { ...context.draft, [event.field]: event.value }) !== null,
    clearsQuery: ({ event }) => event.type === 'listing.changed' && INSIGHT_FIELDS.has(event.field),
  },
  actions: {
    chooseMatch: assign({
      match: ({ event }) => (event.type === 'match.chosen' ? event.match : null),
      draft: ({ context }) => ({ currency: context.currency }),
      blocks: null,
      query: null,
      insights: null,
      created: null,
    }),
    clearMatch: assign({
      match: null,
      draft: ({ context }) => ({ currency: context.currency }),
      blocks: null,
      query: null,
      insights: null,
      created: null,
    }),
    storeBlocks: assign((_, blocks: BlockDetails) => ({ blocks })),
    // the form child as it runs (the test model has none to resolve a name against)
    forwardToForm: enqueueActions(({ enqueue, event, system }) => {
      const form = system.get('listingForm');
      if (!form) return;
      if (event.type === 'listing.changed') {
        const change: FormEvent<ListingValues> = { type: 'field.changed', field: event.field, value: event.value };
        enqueue.sendTo(form, change);
      }
      if (event.type === 'listing.submitted') enqueue.sendTo(form, { type: 'form.submitted' });
    }),
    trackDraft: assign({
      draft: ({ context, event }) =>
        event.type === 'listing.changed' && INSIGHT_FIELDS.has(event.field)
          ? { ...context.draft, [event.field]: event.value }
          : context.draft,
    }),
    storeQuery: assign({ query: ({ context }) => insightQueryOf(context.match, context.draft) }),
    clearInsights: assign({ query: null, insights: null }),
    storeInsights: assign((_, insights: MarketInsights) => ({ insights })),
    storeCreated: assign(({ context }, created: CreatedListing) => ({
      created,
      draft: { currency: context.currency },
      query: null,
      insights: null,
    })),
    announceCreated: emit({ type: 'notify', level: 'success', message: LISTING_CREATED }),
    // what loaded, after any request sent before it came (the server's list may already hold it)
    storeRequests: assign(({ context }, requests: EventRequest[]) => ({
      requests: [...context.requests.filter((r) => !requests.some((l) => l.request_id === r.request_id)), ...requests],
    })),
    addRequest: assign(({ context }, request: EventRequest) => ({
      requests: [request, ...context.requests.filter((r) => r.request_id !== request.request_id)],
    })),
    toastBlocksFailure: emit(notifyError(BLOCKS_FAILED)),
    storeTemplates: assign((_, templates: AdditionalTemplate[]) => ({ templates })),
  },
}).createMachine({
  id: 'addListing',
  context: ({ input }) => ({
    currency: input?.currency ?? 'GBP',
    match: null,
    draft: { currency: input?.currency ?? 'GBP' },
    blocks: null,
    query: null,
    insights: null,
    created: null,
    requests: [],
    templates: [],
  }),
  type: 'parallel',
  states: {
    flow: {
      initial: 'choosingMatch',
      states: {
        choosingMatch: {
          description: 'The seller searches the catalogue for the match.',
          invoke: {
            id: 'matchSearch',
            systemId: 'matchSearch',
            src: 'matchSearch',
            input: { filters: emptyMatchSearch() },
          },
          on: { 'match.chosen': { target: 'loadingBlocks', actions: 'chooseMatch' } },
        },
        loadingBlocks: {
          description: "The stadium's categories and their blocks.",
          tags: ['loading'],
          invoke: {
            id: 'loadBlocks',
            src: 'loadBlocks',
            input: ({ context }) => ({ matchId: context.match?.match_id ?? 0 }),
            onDone: { target: 'editing', actions: { type: 'storeBlocks', params: ({ event }) => event.output } },
            onError: { target: 'blocksFailed', actions: 'toastBlocksFailure' },
          },
        },
        blocksFailed: { tags: ['error'], on: { 'blocks.retried': 'loadingBlocks' } },
        editing: {
          description: 'The listing form: where, what, how many, how split, at what price.',
          invoke: {
            id: 'listingForm',
            systemId: 'listingForm',
            src: 'listingForm',
            input: ({ context }) => ({ values: emptyListing(context.match as CatalogueMatch, context.currency) }),
            onDone: {
              target: 'created',
              actions: [{ type: 'storeCreated', params: ({ event }) => event.output }, 'announceCreated'],
            },
          },
          on: {
            'listing.changed': { actions: ['trackDraft', 'forwardToForm'] },
            'listing.submitted': { actions: 'forwardToForm' },
          },
        },
        created: {
          description: 'Saved: the listing is on sale; the seller may add another for the same match.',
          on: { 'listing.another': 'editing' },
        },
      },
      on: { 'match.cleared': { target: '.choosingMatch', actions: 'clearMatch' } },
    },
    insights: {
      initial: 'idle',
      states: {
        idle: { description: 'No price yet: nothing to compare.', on: { 'listing.changed': priceTyped } },
        waiting: { after: { insightsDebounce: 'loading' }, on: { 'listing.changed': priceTyped } },
        loading: {
          tags: ['loadingInsights'],
          invoke: {
            id: 'loadInsights',
            src: 'loadInsights',
            input: ({ context }) => context.query as InsightQuery,
            onDone: { target: 'shown', actions: { type: 'storeInsights', params: ({ event }) => event.output } },
            onError: 'failed',
          },
          on: { 'listing.changed': priceTyped },
        },
        shown: {
          description: 'What the seller receives after fees and where the price ranks.',
          on: { 'listing.changed': priceTyped },
        },
        failed: { tags: ['insightsError'], on: { 'insights.retried': 'loading', 'listing.changed': priceTyped } },
      },
      on: {
        'match.chosen': { target: '.idle', actions: 'clearInsights' },
        'match.cleared': { target: '.idle', actions: 'clearInsights' },
        'listing.another': { target: '.idle', actions: 'clearInsights' },
      },
    },
    request: {
      initial: 'closed',
      // the seller's earlier requests load beside the form: 'Request an event' opens at once, even before they
      // come (a click while they loaded was lost: the e2e test caught it on a busy machine)
      invoke: {
        id: 'loadRequests',
        src: 'loadRequests',
        onDone: { actions: { type: 'storeRequests', params: ({ event }) => event.output } },
        // the page works without the list of earlier requests
        onError: { actions: [] },
      },
      states: {
        closed: { on: { 'request.opened': 'open' } },
        open: {
          description: "'Request an event': the missing match's name, date and venue.",
          invoke: {
            id: 'eventRequestForm',
            src: 'eventRequestForm',
            input: { values: EVENT_REQUEST_EMPTY },
            onDone: { target: 'closed', actions: { type: 'addRequest', params: ({ event }) => event.output } },
          },
          on: { 'request.closed': 'closed' },
        },
      },
    },
    templates: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingTemplates'],
          invoke: {
            id: 'loadTemplates',
            src: 'loadTemplates',
            onDone: { target: 'ready', actions: { type: 'storeTemplates', params: ({ event }) => event.output } },
            onError: 'failed',
          },
        },
        ready: { description: "The seller's templates, to pick for the listing (Settings › Templates keeps them)." },
        failed: {
          description: 'The templates did not load: the listing can be saved without them, or Retry.',
          tags: ['templatesError'],
          on: { 'templates.retried': 'loading' },
        },
      },
    },
  },
});
