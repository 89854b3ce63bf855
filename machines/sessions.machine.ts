import { assign, emit, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import type { NotifyEvent } from './notify';

export type ActiveSession = components['schemas']['Session'];
export type SessionsEnded = DataOf<'/auth/sessions/logout-others', 'post'>;

export const SESSIONS_LOAD_ERROR = 'Failed to load your sessions.';
const UNEXPECTED = 'An unexpected error occurred. Please try again later.';

export interface SessionsContext {
  sessions: readonly ActiveSession[];
  /** The session being ended, while it is. */
  ending: string | null;
  error: string | null;
}

export type SessionsEvent =
  | { type: 'retry' }
  | { type: 'refresh' }
  | { type: 'session.end.requested'; id: string }
  | { type: 'others.end.requested' }
  | { type: 'others.end.confirmed' }
  | { type: 'others.end.cancelled' };

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : UNEXPECTED);

/**
 * My Account › Active sessions: the caller's sessions load (newest first, its own marked); 'End' ends one other
 * session, 'Log out everywhere' (after a confirmation) ends every other one; each reloads the list.
 */
export const sessionsMachine = setup({
  types: {
    context: {} as SessionsContext,
    events: {} as SessionsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    loadSessions: fromPromise<readonly ActiveSession[]>(
      async ({ signal }) => unwrap(await api.GET('/auth/sessions', { signal }), SESSIONS_LOAD_ERROR).sessions,
    ),
    endSession: fromPromise<SessionsEnded, string>(async ({ input, signal }) =>
      unwrap(await api.POST('/auth/sessions/{id}/end', { params: { path: { id: input } }, signal })),
    ),
    endOthers: fromPromise<SessionsEnded>(async ({ signal }) =>
      unwrap(await api.POST('/auth/sessions/logout-others', { signal })),
    ),
  },
  actions: {
    keepSessions: assign(({ event }) =>
      'output' in event ? { sessions: event.output as readonly ActiveSession[], error: null } : {},
    ),
    recordError: assign(({ event }) => ('error' in event ? { error: messageOf(event.error) } : {})),
    pickSession: assign(({ event }) => (event.type === 'session.end.requested' ? { ending: event.id } : {})),
    dropPicked: assign({ ending: null }),
    notifyEnded: emit({ type: 'notify', level: 'success', message: 'That session is logged out.' } as const),
    notifyOthersEnded: emit(({ event }) => {
      const ended = 'output' in event ? (event.output as SessionsEnded).sessions_ended : 0;
      return {
        type: 'notify' as const,
        level: 'success' as const,
        message:
          ended === 0
            ? 'No other session was active.'
            : `Logged out everywhere else: ${ended === 1 ? '1 session' : `${ended} sessions`} ended.`,
      };
    }),
    notifyFailure: emit(({ event }) => ({
      type: 'notify' as const,
      level: 'error' as const,
      message: 'error' in event ? messageOf(event.error) : UNEXPECTED,
    })),
  },
}).createMachine({
  id: 'sessions',
  context: { sessions: [], ending: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSessions',
        src: 'loadSessions',
        onDone: { target: 'showing', actions: 'keepSessions' },
        onError: { target: 'failed', actions: 'recordError' },
      },
    },
    failed: { tags: ['error'], on: { retry: 'loading' } },
    showing: {
      on: {
        refresh: 'loading',
        'session.end.requested': { target: 'ending', actions: 'pickSession' },
        'others.end.requested': 'confirmingOthers',
      },
    },
    ending: {
      tags: ['busy'],
      invoke: {
        id: 'endSession',
        src: 'endSession',
        input: ({ context }) => context.ending ?? '',
        onDone: { target: 'loading', actions: ['dropPicked', 'notifyEnded'] },
        onError: { target: 'loading', actions: ['dropPicked', 'notifyFailure'] },
      },
    },
    confirmingOthers: {
      description: 'Log out of every other session? (Log out everywhere or Cancel)',
      on: { 'others.end.confirmed': 'endingOthers', 'others.end.cancelled': 'showing' },
    },
    endingOthers: {
      tags: ['busy'],
      invoke: {
        id: 'endOthers',
        src: 'endOthers',
        onDone: { target: 'loading', actions: 'notifyOthersEnded' },
        onError: { target: 'loading', actions: 'notifyFailure' },
      },
    },
  },
});
