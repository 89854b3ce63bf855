import { assign, emit, fromPromise, setup } from 'xstate';
import { SESSION_TTL_MS, type StoredSession } from '../openapi/auth-cookies';
import { ApiError, api, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { kycGateMachine } from './kyc-gate.machine';

export type Account = components['schemas']['Account'];
export type Permission = components['schemas']['Permission'];
export type PermissionName = components['schemas']['PermissionName'];
export type UserType = components['schemas']['UserType'];
export type KycStatus = components['schemas']['KycStatus'];
export interface Roles {
  user_type: UserType;
  permissions: Permission[];
}
export interface Kyc {
  kyc_status: KycStatus;
  rejection_reason: string | null;
}
export interface LoginOutput {
  token: string;
  user_token: string;
  first_name: string;
}

/** Where the session is kept between page loads (the spec's cookies in the browser, a fake in tests). */
export interface SessionStore {
  read(): StoredSession | null;
  save(session: StoredSession): void;
  clear(): void;
}

export interface SessionInput {
  store: SessionStore;
  now?: () => number;
}

export interface SessionContext {
  store: SessionStore;
  now: () => number;
  token: string | null;
  account: Account | null;
  roles: Roles | null;
  kyc: Kyc | null;
  /** The message of the last failure (login refused, profile not loaded). */
  error: string | null;
}

export type SessionEvent =
  | { type: 'login.submitted'; email: string; password: string }
  | { type: 'logout.requested' }
  | { type: 'profile.retried' };

export type SessionEmitted = { type: 'notify'; level: 'error' | 'success' | 'info'; message: string };

export const PROFILE_ERROR = 'Error loading account details';

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;
const errorOf = (event: { type: string }) => ('error' in event ? event.error : undefined);

/** Any of the three profile calls failing: a dead token logs out, anything else offers a retry. */
const whenProfilePartFails = [
  { guard: 'isUnauthorized', target: '#session.loggedOut', actions: 'clearSession' },
  { target: '#session.profileFailed', actions: ['recordError', 'notifyProfileError'] },
] as const;

/**
 * The session: restoring a stored login (valid only while its validity stamp is younger than 24 hours),
 * logging in, loading the profile (account, roles and KYC status in parallel), logged in, logging out.
 * Logging out always ends logged out with the cookies and storage cleared, even when the server call fails.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
  },
  actors: {
    login: fromPromise<LoginOutput, { email: string; password: string }>(async ({ input }) =>
      unwrap(await api.POST('/auth/login', { body: input })),
    ),
    loadAccount: fromPromise<Account>(async () => unwrap(await api.GET('/settings/my-account'), PROFILE_ERROR)),
    loadRoles: fromPromise<Roles>(async () => unwrap(await api.GET('/account/roles-permissions'), PROFILE_ERROR)),
    loadKyc: fromPromise<Kyc>(async () => unwrap(await api.GET('/account/kyc-status'), PROFILE_ERROR)),
    kycGate: kycGateMachine,
    logout: fromPromise<void>(async () => {
      await api.POST('/auth/logout');
    }),
  },
  guards: {
    hasValidStoredSession: ({ context }) => {
      const stored = context.store.read();
      return stored !== null && stored.issuedAt > context.now() - SESSION_TTL_MS && stored.issuedAt <= context.now();
    },
    isUnauthorized: ({ event }) => isUnauthorized(errorOf(event)),
  },
  actions: {
    adoptStoredSession: assign({ token: ({ context }) => context.store.read()?.token ?? null }),
    storeSession: assign(({ context }, output: LoginOutput) => {
      context.store.save({ token: output.token, userToken: output.user_token, issuedAt: context.now() });
      return { token: output.token, error: null };
    }),
    clearSession: assign(({ context }) => {
      context.store.clear();
      return { token: null, account: null, roles: null, kyc: null };
    }),
    recordError: assign({ error: ({ event }) => messageOfError(errorOf(event)) }),
    clearError: assign({ error: null }),
    notifyProfileError: emit({ type: 'notify', level: 'error', message: PROFILE_ERROR } as const),
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
  }),
  initial: 'restoring',
  states: {
    restoring: {
      description: 'Reads the stored token; it counts only while its validity stamp is younger than 24 hours.',
      tags: ['loading'],
      always: [
        { guard: 'hasValidStoredSession', target: 'loadingProfile', actions: 'adoptStoredSession' },
        { target: 'loggedOut', actions: 'clearSession' },
      ],
    },
    loggedOut: {
      description: 'The login page.',
      initial: 'idle',
      states: {
        idle: {},
        failed: { description: "The server's message is shown above the form.", tags: ['error'] },
        signedOut: { description: 'The user logged out: /login, with nothing to come back to.' },
      },
      on: { 'login.submitted': { target: 'loggingIn', actions: 'clearError' } },
    },
    loggingIn: {
      tags: ['submitting'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => {
          if (event.type !== 'login.submitted') throw new Error(`loggingIn entered by ${event.type}`);
          return { email: event.email, password: event.password };
        },
        onDone: {
          target: 'loadingProfile',
          actions: { type: 'storeSession', params: ({ event }) => event.output },
        },
        onError: {
          target: 'loggedOut.failed',
          actions: 'recordError',
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
      on: { 'logout.requested': 'loggingOut' },
    },
    loggingOut: {
      description: 'Tells the server; whatever it answers, the cookies and storage are cleared.',
      tags: ['loading'],
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'loggedOut.signedOut', actions: 'clearSession' },
        onError: { target: 'loggedOut.signedOut', actions: 'clearSession' },
      },
    },
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
