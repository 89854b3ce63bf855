import { fromPromise } from 'xstate';
import {
  type Account,
  type Kyc,
  PROFILE_ERROR,
  profileCalls,
  type Roles,
  sessionMachine,
} from '../../machines/session.machine';
import { unwrap } from '../../openapi/client';

type Part = keyof typeof profileCalls;
type Pending = { [K in Part]?: ReturnType<(typeof profileCalls)[K]> };

const ignore = () => {};

/**
 * The session machine whose first profile load takes the three calls made now, as the app's script runs,
 * instead of making them once React has rendered and started the session actor (its effects come after the
 * first render, a few hundred milliseconds later on a slow phone). Only for a page opened with a live stored
 * session, where the session goes straight to `loadingProfile`; a retry, or a profile load after a login, calls
 * again. A call's failure is the actor's, as before: it is only kept until the actor takes it.
 */
export function sessionWithEarlyProfile(calls: typeof profileCalls = profileCalls) {
  const pending: Pending = { account: calls.account(), roles: calls.roles(), kyc: calls.kyc() };
  // a failed call is answered when the actor takes it, not reported as unhandled before
  for (const call of Object.values(pending)) call.catch(ignore);
  const take = <K extends Part>(part: K): ReturnType<(typeof profileCalls)[K]> => {
    const early = pending[part];
    delete pending[part];
    return (early ?? calls[part]()) as ReturnType<(typeof profileCalls)[K]>;
  };
  return sessionMachine.provide({
    actors: {
      loadAccount: fromPromise<Account>(async () => unwrap(await take('account'), PROFILE_ERROR)),
      loadRoles: fromPromise<Roles>(async () => unwrap(await take('roles'), PROFILE_ERROR)),
      loadKyc: fromPromise<Kyc>(async () => unwrap(await take('kyc'), PROFILE_ERROR)),
    },
  });
}
