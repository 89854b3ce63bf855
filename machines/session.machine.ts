import { type AnyActorLogic, type AnyActorRef, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { isLiveSession, type StoredSession } from '../openapi/auth-cookies';
import { ApiError, api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { kycGateMachine } from './kyc-gate.machine';
import { EMPTY_LOGIN, type LoginOutput, loginFormMachine } from './login-form.machine';
import type { NotifyEvent } from './notify';

export type Account = components['schemas']['Account'];
export type Permission = components['schemas']['Permission'];
export type PermissionName = components['schemas']['PermissionName'];
export type UserType = components['schemas']['UserType'];
export type KycStatus = components['schemas']['KycStatus'];
export type Roles = DataOf<'/account/roles-permissions', 'get'>;
export type Kyc = DataOf<'/account/kyc-status', 'get'>;
export type { LoginOutput };

/** Where the session is kept between page loads (the spec's cookies in the browser, a fake in tests). */
export interface SessionStore {
  read(): StoredSession | null;
  save(session: StoredSession): void;
  clear(): void;
}

/**
 * The profile a page opened with a session carries in its HTML (server/http/static.ts): what the three profile
 * calls answer, for the session whose validity stamp is `issuedAt`.
 */
export interface PageProfile {
  issuedAt: number;
  account: Account;
  roles: Roles;
  kyc: Kyc;
}

export interface SessionInput {
  store: SessionStore;
  now?: () => number;
  /** The page's profile, if it carries one (src/app/app.tsx reads it). */
  profile?: PageProfile | null;
}

export interface SessionContext {
  store: SessionStore;
  now: () => number;
  token: string | null;
  account: Account | null;
  roles: Roles | null;
  kyc: Kyc | null;
  /** The message of the last failure (profile not loaded). */
  error: string | null;
  /** The profile the page came with, until the stored session is read. */
  pageProfile: PageProfile | null;
  /** Views' actors that joined the system (`view.opened`), by the key their view gave. */
  views: Readonly<Record<string, AnyActorRef>>;
}

export type SessionEvent =
  | { type: 'logout.requested' }
  | { type: 'profile.retried' }
  /** The KYC page heard a decision (approved, rejected): the gate opens or holds the portal, no new login. */
  | { type: 'kyc.changed'; kyc: Kyc }
  /** My Account saved the account's details: the header and the menu show the new name at once. */
  | { type: 'account.updated'; account: Account }
  /**
   * A view's actor joins the app's actor system as a child of the session, under the view's key, and
   * under a `systemId` when other actors are to reach it.
   */
  | { type: 'view.opened'; id: string; logic: AnyActorLogic; input?: unknown; systemId?: string }
  | { type: 'view.closed'; id: string };

export type SessionEmitted = NotifyEvent;

export const PROFILE_ERROR = 'Error loading account details';

/** The three calls of the profile (the `loadingProfile` state's actors make them). */
export const profileCalls = {
  account: () => api.GET('/settings/my-account'),
  roles: () => api.GET('/account/roles-permissions'),
  kyc: () => api.GET('/account/kyc-status'),
};

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;
const errorOf = (event: { type: string }) => ('error' in event ? event.error : undefined);

/** Any of the three profile calls failing: a dead token logs out, anything else offers a retry. */
const whenProfilePartFails = [
  { guard: 'isUnauthorized', target: '#session.loggedOut', actions: ['forgetStoredSession', 'dropSession'] },
  { target: '#session.profileFailed', actions: ['recordError', 'notifyProfileError'] },
] as const;

/**
 * The session, the root of the app's actor system: restoring a stored login (valid only while its validity
 * stamp is younger than 24 hours), the login form (a child: its result is the token), loading the profile
 * (account, roles and KYC status in parallel), logged in (the KYC gate runs as a child), logging out. Logging out always ends logged out with the cookies and storage cleared, even
 * when the server call fails. Views' own actors (the menu counts, a notifications feed) join the system as
 * children of the session through `view.opened`/`view.closed`, so they reach each other by `systemId`.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
  },
  actors: {
    loginForm: loginFormMachine,
    loadAccount: fromPromise<Account>(async () => unwrap(await profileCalls.account(), PROFILE_ERROR)),
    loadRoles: fromPromise<Roles>(async () => unwrap(await profileCalls.roles(), PROFILE_ERROR)),
    loadKyc: fromPromise<Kyc>(async () => unwrap(await profileCalls.kyc(), PROFILE_ERROR)),
    kycGate: kycGateMachine,
    logout: fromPromise<void>(async () => {
      await api.POST('/auth/logout');
    }),
  },
  guards: {
    hasValidStoredSession: ({ context }) => {
      const stored = context.store.read();
      return isLiveSession(stored, context.now());
    },
    /** A live stored session, and the page came with its profile (made for that session's stamp). */
    hasPageProfile: ({ context }) => {
      const stored = context.store.read();
      return isLiveSession(stored, context.now()) && context.pageProfile?.issuedAt === stored?.issuedAt;
    },
    isUnauthorized: ({ event }) => isUnauthorized(errorOf(event)),
  },
  actions: {
    adoptStoredSession: assign({ token: ({ context }) => context.store.read()?.token ?? null, pageProfile: null }),
    adoptPageProfile: assign(({ context }) => {
      const { account, roles, kyc } = context.pageProfile as PageProfile;
      return { account, roles, kyc };
    }),
    // the cookies are written and cleared by these two named effects, which tests replace
    storeLogin: ({ context }, output: LoginOutput) => {
      context.store.save({ token: output.token, userToken: output.user_token, issuedAt: context.now() });
    },
    forgetStoredSession: ({ context }) => {
      context.store.clear();
    },
    adoptLogin: assign((_, output: LoginOutput) => ({ token: output.token, error: null })),
    adoptAccount: assign(({ event }) => (event.type === 'account.updated' ? { account: event.account } : {})),
    dropSession: assign({ token: null, account: null, roles: null, kyc: null, pageProfile: null }),
    adoptKyc: enqueueActions(({ event, enqueue, system }) => {
      if (event.type !== 'kyc.changed') return;
      enqueue.assign({ kyc: event.kyc });
      // the gate is the loggedIn state's child (absent only in the test model's pure traversal)
      const gate = system.get('kycGate');
      const kycStatus = event.kyc.kyc_status;
      if (gate) enqueue(() => gate.send({ type: 'kyc.updated', kycStatus }));
    }),
    recordError: assign({ error: ({ event }) => messageOfError(errorOf(event)) }),
    clearError: assign({ error: null }),
    notifyProfileError: emit({ type: 'notify', level: 'error', message: PROFILE_ERROR } as const),
    openView: assign({
      views: ({ context, event, spawn }) =>
        event.type === 'view.opened' && !context.views[event.id]
          ? {
              ...context.views,
              [event.id]: spawn(event.logic, {
                input: event.input,
                ...(event.systemId ? { systemId: event.systemId } : {}),
              }),
            }
          : context.views,
    }),
    closeView: enqueueActions(({ context, event, enqueue }) => {
      const view = event.type === 'view.closed' ? context.views[event.id] : undefined;
      if (!view || event.type !== 'view.closed') return;
      enqueue.stopChild(view);
      const { [event.id]: _closed, ...views } = context.views;
      enqueue.assign({ views });
    }),
    reportActorFailure: ({ event }) => {
      console.error('An actor of the app failed', errorOf(event));
    },
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    store: input.store,
    now: input.now ?? Date.now,
    token: null,
    account: null,
    roles: null,
    kyc: null,
    error: null,
    pageProfile: input.profile ?? null,
    views: {},
  }),
  initial: 'restoring',
  states: {
    restoring: {
      description:
        'Reads the stored token; it counts only while its validity stamp is younger than 24 hours. A page opened with a session carries its profile.',
      tags: ['loading'],
      always: [
        {
          guard: 'hasPageProfile',
          target: 'loggedIn',
          actions: ['adoptPageProfile', 'adoptStoredSession'],
          description: 'The page came with the profile: the portal opens without the three calls.',
        },
        { guard: 'hasValidStoredSession', target: 'loadingProfile', actions: 'adoptStoredSession' },
        { target: 'loggedOut', actions: ['forgetStoredSession', 'dropSession'] },
      ],
    },
    loggedOut: {
      description: 'The login page and its form.',
      initial: 'idle',
      states: {
        idle: {},
        signedOut: { description: 'The user logged out: /login, with nothing to come back to.' },
      },
      invoke: {
        id: 'loginForm',
        src: 'loginForm',
        input: { values: EMPTY_LOGIN },
        onDone: {
          target: 'loadingProfile',
          actions: [
            { type: 'storeLogin', params: ({ event }) => event.output },
            { type: 'adoptLogin', params: ({ event }) => event.output },
          ],
        },
      },
    },
    loadingProfile: {
      description: 'Account, roles and KYC status load in parallel.',
      tags: ['loading'],
      type: 'parallel',
      states: {
        account: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadAccount',
                src: 'loadAccount',
                onDone: { target: 'loaded', actions: assign({ account: ({ event }) => event.output }) },
                onError: whenProfilePartFails,
              },
            },
            loaded: { type: 'final' },
          },
        },
        roles: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadRoles',
                src: 'loadRoles',
                onDone: { target: 'loaded', actions: assign({ roles: ({ event }) => event.output }) },
                onError: whenProfilePartFails,
              },
            },
            loaded: { type: 'final' },
          },
        },
        kyc: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadKyc',
                src: 'loadKyc',
                onDone: { target: 'loaded', actions: assign({ kyc: ({ event }) => event.output }) },
                onError: whenProfilePartFails,
              },
            },
            loaded: { type: 'final' },
          },
        },
      },
      onDone: { target: 'loggedIn' },
    },
    profileFailed: {
      description: "The profile did not load: 'Error loading account details' with Retry and Log out.",
      tags: ['error'],
      on: {
        'profile.retried': { target: 'loadingProfile', actions: 'clearError' },
        'logout.requested': 'loggingOut',
      },
    },
    loggedIn: {
      description: 'The portal: permissions, user_type and kyc_status are known; the KYC gate decides what opens.',
      invoke: {
        id: 'kycGate',
        systemId: 'kycGate',
        src: 'kycGate',
        input: ({ context }) => ({
          userType: context.roles?.user_type ?? context.account?.user_type ?? 'sellers',
          kycStatus: context.kyc?.kyc_status ?? 0,
        }),
      },
      on: {
        'logout.requested': 'loggingOut',
        'kyc.changed': { actions: 'adoptKyc' },
        'account.updated': { actions: 'adoptAccount' },
      },
    },
    loggingOut: {
      description: 'Tells the server; whatever it answers, the cookies and storage are cleared.',
      tags: ['loading'],
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'loggedOut.signedOut', actions: ['forgetStoredSession', 'dropSession'] },
        onError: { target: 'loggedOut.signedOut', actions: ['forgetStoredSession', 'dropSession'] },
      },
    },
  },
  on: {
    'view.opened': { actions: 'openView' },
    'view.closed': { actions: 'closeView' },
    // a view's actor that fails takes its view down, not the session
    'xstate.error.actor.*': { actions: 'reportActorFailure' },
  },
});

function messageOfError(error: unknown): string {
  return error instanceof Error && error.message
    ? error.message
    : 'An unexpected error occurred. Please try again later.';
}

type Snapshot = ReturnType<typeof sessionMachine.getInitialSnapshot>;

/** The permission names the caller may access (is_can_access 1). */
export const selectAllowedPermissions = (s: Snapshot): PermissionName[] =>
  s.context.roles?.permissions.filter((p) => p.is_can_access === 1).map((p) => p.name) ?? [];
export const selectFirstName = (s: Snapshot) => s.context.account?.first_name ?? '';
export const selectKycStatus = (s: Snapshot) => s.context.kyc?.kyc_status ?? null;
