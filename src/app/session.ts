import { createActorContext, useSelector } from '@xstate/react';
import type { ActorRefFrom, AnyActorLogic } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';

/** The one session actor of the app, the root of its actor system; views select from it and send it events. */
export const Session = createActorContext(sessionMachine);

/** A child actor of the session by id (an invoked one: `loginForm`, `kycGate`), or undefined when it is not running. */
export function useSessionChild<TLogic extends AnyActorLogic>(id: string): ActorRefFrom<TLogic> | undefined {
  return Session.useSelector((s) => s.children[id as keyof typeof s.children]) as ActorRefFrom<TLogic> | undefined;
}

export { useSelector };
