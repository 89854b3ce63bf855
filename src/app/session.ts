import { createActorContext, useSelector } from '@xstate/react';
import { useLayoutEffect, useRef } from 'react';
import type { ActorRefFrom, AnyActorLogic, InputFrom } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';

/** The one session actor of the app, the root of its actor system; views select from it and send it events. */
export const Session = createActorContext(sessionMachine);

/**
 * A view's own actor (a feed, a form), run as a child of the session so that it joins the app's actor
 * system: it reaches the system's actors by `systemId` (`menuCounts`, `kycGate`) and they it, and the
 * notify bridge turns its `notify` events into toasts. It starts when the view mounts and stops when it unmounts. `key` names it
 * among the session's views (two views open at once need two keys); `input` is read when it starts.
 * Undefined until the session has started it (the first render of a view mounted with the session).
 */
export function useViewActor<TLogic extends AnyActorLogic>(
  logic: TLogic,
  key: string,
  input?: InputFrom<TLogic>,
): ActorRefFrom<TLogic> | undefined {
  const session = Session.useActorRef();
  const startWith = useRef(input);
  useLayoutEffect(() => {
    session.send({ type: 'view.opened', id: key, logic, input: startWith.current });
    return () => session.send({ type: 'view.closed', id: key });
  }, [session, key, logic]);
  return Session.useSelector((s) => s.context.views[key]) as ActorRefFrom<TLogic> | undefined;
}

/** A child actor of the session by id (an invoked one: `loginForm`, `kycGate`), or undefined when it is not running. */
export function useSessionChild<TLogic extends AnyActorLogic>(id: string): ActorRefFrom<TLogic> | undefined {
  return Session.useSelector((s) => s.children[id as keyof typeof s.children]) as ActorRefFrom<TLogic> | undefined;
}

export { useSelector };
