import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../../openapi/client';

export type AdminEvent = DataOf<'/admin/events', 'get'>['events'][number];

export interface TransferWindowsContext {
  /** the search as typed; the list shows the events of `searched` */
  q: string;
  events: AdminEvent[];
  /** the event whose window is being saved, and what it is set to */
  saving: { id: number; hours: number | null } | null;
  /** why the last save was refused, by event id */
  problem: { id: number; message: string } | null;
  /** the last save that went through (the page says so and moves focus there) */
  saved: AdminEvent | null;
}

export type TransferWindowsEvent =
  | { type: 'search.changed'; q: string }
  | { type: 'window.saved'; id: number; hours: number | null }
  | { type: 'list.retried' };

/**
 * The back office's transfer windows: the events to come, found by a search, each with the hours before
 * kick-off from which its club releases mobile transfers. Saving one moves its open orders' deadlines at once
 * (server). A refused save keeps the list and says why beside that event; a failed read offers Retry.
 */
export const transferWindowsMachine = setup({
  types: {
    context: {} as TransferWindowsContext,
    events: {} as TransferWindowsEvent,
  },
  actors: {
    loadEvents: fromPromise<AdminEvent[], { q: string }>(async ({ input }) => {
      const q = input.q.trim();
      return unwrap(await api.GET('/admin/events', { params: { query: q ? { q } : {} } })).events;
    }),
    saveWindow: fromPromise<AdminEvent, { id: number; hours: number | null }>(async ({ input }) =>
      unwrap(
        await api.PUT('/admin/events/{id}/transfer-window', {
          params: { path: { id: input.id } },
          body: { hours: input.hours },
        }),
      ),
    ),
  },
  delays: { typing: 300 },
  actions: {
    keepQuery: assign({ q: (_, q: string) => q }),
    keepEvents: assign({ events: (_, events: AdminEvent[]) => events, saved: null, problem: null }),
    startSave: assign({
      saving: (_, s: { id: number; hours: number | null }) => s,
      problem: null,
      saved: null,
    }),
    keepSaved: assign({
      events: ({ context }, event: AdminEvent) => context.events.map((e) => (e.id === event.id ? event : e)),
      saved: (_, event: AdminEvent) => event,
      saving: null,
    }),
    keepProblem: assign({
      problem: ({ context }, message: string) => (context.saving ? { id: context.saving.id, message } : null),
      saving: null,
    }),
  },
}).createMachine({
  id: 'transferWindows',
  description:
    'The back office sets when each event’s club releases mobile transfers; a save moves the open orders’ deadlines.',
  context: { q: '', events: [], saving: null, problem: null, saved: null },
  initial: 'loading',
  on: {
    'search.changed': { target: '.typing', actions: { type: 'keepQuery', params: ({ event }) => event.q } },
  },
  states: {
    typing: {
      description: 'The search is being typed: the list is read again once typing pauses.',
      after: { typing: 'loading' },
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadEvents',
        src: 'loadEvents',
        input: ({ context }) => ({ q: context.q }),
        onDone: { target: 'ready', actions: { type: 'keepEvents', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: {
      tags: ['error'],
      description: 'The list could not be read: Retry reads it again.',
      on: { 'list.retried': 'loading' },
    },
    ready: {
      on: {
        'window.saved': {
          target: 'saving',
          actions: { type: 'startSave', params: ({ event }) => ({ id: event.id, hours: event.hours }) },
        },
      },
    },
    saving: {
      tags: ['saving'],
      on: { 'search.changed': {} },
      invoke: {
        id: 'saveWindow',
        src: 'saveWindow',
        input: ({ context }) => context.saving ?? { id: 0, hours: null },
        onDone: { target: 'ready', actions: { type: 'keepSaved', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: { type: 'keepProblem', params: ({ event }) => messageOf(event.error, 'The window was not saved.') },
        },
      },
    },
  },
});
