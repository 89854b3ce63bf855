import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { FILL_CHECK_MS, SCROLL_DEBOUNCE_MS } from './list.machine';
import { CONTACTS_LOAD_ERROR, type SellerContact, sellerContactsMachine } from './seller-contacts.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const contact = (id: number): SellerContact => ({
  id,
  name: `Contact ${id}`,
  role: 'Account manager',
  email: `c${id}@example.com`,
  phone: null,
  hours: null,
});
const page = (n: number, last: number, ids: number[]) => ({ items: ids.map(contact), page: n, lastPage: last });

// the contacts come in one page; the list machine's paging states are reached with a page that says more exist
const events = [
  { type: 'xstate.done.actor.fetchPage', output: page(1, 1, [1, 2]) },
  { type: 'xstate.done.actor.fetchPage', output: page(1, 2, [1]) },
  { type: 'xstate.done.actor.fetchPage', output: page(1, 1, []) },
  { type: 'xstate.error.actor.fetchPage', error: new ApiError(500, CONTACTS_LOAD_ERROR) },
  { type: 'list.scrolled', distanceFromBottom: 20 },
  { type: 'list.scrolled', distanceFromBottom: 400 },
  { type: 'list.measured', fillsView: false },
  { type: 'list.measured', fillsView: true },
  { type: 'list.moreRequested' },
  { type: 'list.retried' },
  { type: 'list.refreshed' },
  { type: 'filters.changed', filters: {} },
  { type: 'sort.changed', sort: null },
  { type: 'page.requested', page: 2 },
  { type: 'item.opened', key: 1 },
  { type: 'item.patched', key: 1, changes: { name: 'Renamed' } },
];
const DELAYS: Record<string, number> = { fillCheck: FILL_CHECK_MS, scrollDebounce: SCROLL_DEBOUNCE_MS };

describe('settings › seller contacts statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(sellerContactsMachine, {
    events,
    input: { filters: {} },
    identity: ({ value, context }) => [value, context.page, context.lastPage, context.items.length, context.distance],
  });

  it('the generated paths reach every state and every transition this list can take', () => {
    // the page has no filters and no sort (always {} and null), and every failure toasts: the list machine's
    // branches for changed filters or sort and for a logged-only failure cannot happen here (list.model.test.ts
    // takes them on its own rows)
    expect(uncovered(sellerContactsMachine, paths)).toEqual({
      missingStates: [],
      missingTransitions: [
        'sellerContacts --filters.changed#0 if changesFilters--> sellerContacts.loading',
        'sellerContacts --sort.changed#0 if changesSort--> sellerContacts.loading',
        'sellerContacts.loading --xstate.error.actor.fetchPage#1--> sellerContacts.failed',
        'sellerContacts.loadingMore --xstate.error.actor.fetchPage#1--> sellerContacts.failedMore',
      ],
    });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['fetchPage'] as const);
      const toasts: string[] = [];
      const actor = createActor(sellerContactsMachine.provide({ actors: control.actors }), { input: { filters: {} } });
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('after.')) {
            await vi.advanceTimersByTimeAsync(DELAYS[event.type.slice('after.'.length)] ?? 0);
            return true;
          }
          return control.settle(event);
        },
        (real) => {
          // a failure shows and toasts the spec's 'Failed to fetch data'
          if (real.hasTag('error')) {
            expect(real.context.error).toBe(CONTACTS_LOAD_ERROR);
            expect(toasts).toContain(CONTACTS_LOAD_ERROR);
          } else expect(real.context.error).toBeNull();
          if (real.matches('empty')) expect(real.context.items).toEqual([]);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
