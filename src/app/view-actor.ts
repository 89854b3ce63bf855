import { useLayoutEffect, useRef } from 'react';
import type { ActorRefFrom, AnyActorLogic, InputFrom } from 'xstate';
import { Session } from './session';

// Apart from session.ts, which /login loads: only the logged-in views start actors of their own.

/**
 * A view's own actor (a feed, a form), run as a child of the session so that it joins the app's actor
 * system: it reaches the system's actors by `systemId` (`menuCounts`, `kycGate`) and they it, and the
 * notify bridge turns its `notify` events into toasts. It starts when the view mounts and stops when it unmounts. `key` names it
 * among the session's views (two views open at once need two keys); `input` is read when it starts (when
 * the key changes, the new key's actor starts with the input of that render: /sales/pending to
 * /sales/delivered is one page whose key and input both change);
 * `systemId` lets other actors reach it. Undefined until the session has started it (the first render of
 * a view mounted with the session).
 */
export function useViewActor<TLogic extends AnyActorLogic>(
  logic: TLogic,
  key: string,
  input?: InputFrom<TLogic>,
  options: { systemId?: string } = {},
): ActorRefFrom<TLogic> | undefined {
  const session = Session.useActorRef();
  const startWith = useRef({ key, input });
  if (startWith.current.key !== key) startWith.current = { key, input };
  const { systemId } = options;
  useLayoutEffect(() => {
    session.send({ type: 'view.opened', id: key, logic, input: startWith.current.input, systemId });
    return () => session.send({ type: 'view.closed', id: key });
  }, [session, key, logic, systemId]);
  return Session.useSelector((s) => s.context.views[key]) as ActorRefFrom<TLogic> | undefined;
}
