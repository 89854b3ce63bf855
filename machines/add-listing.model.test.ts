import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  addListingMachine,
  BLOCKS_FAILED,
  type CatalogueMatch,
  type CreatedListing,
  type EventRequest,
  INSIGHTS_DEBOUNCE_MS,
  insightQueryOf,
  LISTING_CREATED,
  type MarketInsights,
} from './add-listing.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const match = {
  match_id: 7,
  match_name: 'Arsenal vs Chelsea',
  match_date: '2027-01-10',
  match_time: '17:30',
  stadium_name: 'Emirates Stadium',
  city_name: 'London',
  country_name: 'United Kingdom',
  currency: 'GBP',
} as unknown as CatalogueMatch;
const blocks = { categories: [{ category: 'Longside Lower', blocks: ['112', '113'] }] };
const insights = {
  currency: 'GBP',
  lowest: 9_000,
  median: 12_000,
  highest: 30_000,
  listings_count: 14,
  sold_recently: 3,
  rank: 4,
  seller_receives: 11_250,
} as unknown as MarketInsights;
const created = { id: 501 } as unknown as CreatedListing;
const request = {
  id: 9,
  name: 'Spurs vs Leeds',
  date: '2027-02-01',
  venue: 'Tottenham',
  status: 'pending',
} as unknown as EventRequest;

const template = {
  template_id: 3,
  name: 'Collection point',
  content: 'Gate B.',
  file: null,
  listings_count: 0,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

const events = [
  { type: 'match.chosen', match },
  { type: 'match.cleared' },
  { type: 'blocks.retried' },
  { type: 'listing.changed', field: 'category', value: 'Longside Lower' },
  { type: 'listing.changed', field: 'price', value: 12_500 },
  { type: 'listing.changed', field: 'price', value: null },
  { type: 'listing.changed', field: 'row', value: 'F' },
  { type: 'listing.submitted' },
  { type: 'listing.another' },
  { type: 'insights.retried' },
  { type: 'request.opened' },
  { type: 'request.closed' },
  { type: 'after.insightsDebounce' },
  { type: 'xstate.done.actor.loadBlocks', output: blocks },
  { type: 'xstate.error.actor.loadBlocks', error: new ApiError(500, 'down') },
  { type: 'xstate.done.actor.loadInsights', output: insights },
  { type: 'xstate.error.actor.loadInsights', error: new ApiError(500, 'down') },
  { type: 'xstate.done.actor.loadRequests', output: [] },
  { type: 'xstate.error.actor.loadRequests', error: new ApiError(500, 'down') },
  { type: 'xstate.done.actor.listingForm', output: created },
  { type: 'xstate.done.actor.eventRequestForm', output: request },
  { type: 'templates.retried' },
  { type: 'xstate.done.actor.loadTemplates', output: [template] },
  { type: 'xstate.error.actor.loadTemplates', error: new ApiError(500, 'down') },
];

const ACTORS = [
  'loadBlocks',
  'loadInsights',
  'loadRequests',
  'listingForm',
  'eventRequestForm',
  'loadTemplates',
] as const;

function start() {
  const control = controllableActors(ACTORS);
  const actor = createActor(
    addListingMachine.provide({ actors: { ...control.actors, matchSearch: createMachine({}) as never } }),
    { input: { currency: 'GBP' } },
  );
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted };
}

describe('add listing statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(addListingMachine, {
    events,
    input: { currency: 'GBP' },
    identity: ({ value, context }) => [value, context.match?.match_id ?? null, context.query !== null],
    invariant: 'the match, the market query and the insights are what the state shows',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(addListingMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted } = start();
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type === 'after.insightsDebounce') {
            await vi.advanceTimersByTimeAsync(INSIGHTS_DEBOUNCE_MS);
            return true;
          }
          return control.settle(event);
        },
        (real) => {
          const { context } = real;
          const value = real.value as { flow: string; insights: string; request: string; templates: string };
          expect(context.templates).toEqual(value.templates === 'ready' ? [template] : []);
          if (value.flow === 'choosingMatch') expect(context.match).toBeNull();
          else expect(context.match?.match_id).toBe(7);
          if (value.flow === 'loadingBlocks') expect(control.pending('loadBlocks')?.input).toEqual({ matchId: 7 });
          if (value.flow === 'editing') expect(context.blocks).toEqual(blocks);
          if (value.flow === 'created') expect(context.created).toEqual(created);
          if (value.insights === 'idle') expect(context.insights).toBeNull();
          if (value.insights === 'waiting' || value.insights === 'loading')
            expect(context.query).toMatchObject({ match_id: 7, category: 'Longside Lower', price: 12_500 });
          if (value.insights === 'loading') expect(control.pending('loadInsights')?.input).toEqual(context.query);
          if (value.insights === 'shown') expect(context.insights).toEqual(insights);
          for (const e of emitted.filter((x) => x.type === 'notify'))
            expect([BLOCKS_FAILED, LISTING_CREATED, 'Failed to fetch data']).toContain(e.message);
        },
      );
      actor.stop();
      await flush();
    });
  }
});

describe('add listing statechart', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks the market once the price rests, with the category and the quantity typed', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.loadRequests', output: [] });
    actor.send({ type: 'match.chosen', match });
    await control.settle({ type: 'xstate.done.actor.loadBlocks', output: blocks });
    actor.send({ type: 'listing.changed', field: 'category', value: 'Longside Lower' });
    actor.send({ type: 'listing.changed', field: 'quantity', value: 4 });
    actor.send({ type: 'listing.changed', field: 'price', value: 12_000 });
    await vi.advanceTimersByTimeAsync(INSIGHTS_DEBOUNCE_MS - 10);
    actor.send({ type: 'listing.changed', field: 'price', value: 12_500 });
    await vi.advanceTimersByTimeAsync(INSIGHTS_DEBOUNCE_MS - 10);
    expect(control.isPending('loadInsights')).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(control.pending('loadInsights')?.input).toEqual({
      match_id: 7,
      category: 'Longside Lower',
      price: 12_500,
      currency: 'GBP',
      quantity: 4,
    });
    // a price wiped out: nothing to compare
    actor.send({ type: 'listing.changed', field: 'price', value: null });
    expect(actor.getSnapshot().matches({ insights: 'idle' })).toBe(true);
  });

  it("opens 'Request an event' before the earlier requests come, and keeps a request sent meanwhile", async () => {
    const { actor, control } = start();
    expect(control.isPending('loadRequests')).toBe(true);
    actor.send({ type: 'request.opened' });
    expect(actor.getSnapshot().matches({ request: 'open' })).toBe(true);
    const sent = { ...request, request_id: 10 } as EventRequest;
    await control.settle({ type: 'xstate.done.actor.eventRequestForm', output: sent });
    const earlier = { ...request, request_id: 4 } as EventRequest;
    await control.settle({ type: 'xstate.done.actor.loadRequests', output: [earlier] });
    expect(actor.getSnapshot().context.requests.map((r) => r.request_id)).toEqual([10, 4]);
    // the list may already hold the one sent: it is not shown twice
    const again = start();
    again.actor.send({ type: 'request.opened' });
    await again.control.settle({ type: 'xstate.done.actor.eventRequestForm', output: sent });
    await again.control.settle({ type: 'xstate.done.actor.loadRequests', output: [sent, earlier] });
    expect(again.actor.getSnapshot().context.requests.map((r) => r.request_id)).toEqual([10, 4]);
  });

  it('asks nothing without a category or with a price of zero', () => {
    expect(insightQueryOf(match, { price: 100 })).toBeNull();
    expect(insightQueryOf(match, { category: 'A', price: 0 })).toBeNull();
    expect(insightQueryOf(null, { category: 'A', price: 100 })).toBeNull();
    expect(insightQueryOf(match, { category: 'A', price: 100 })).toEqual({
      match_id: 7,
      category: 'A',
      price: 100,
      currency: 'GBP',
      quantity: undefined,
    });
  });
});
