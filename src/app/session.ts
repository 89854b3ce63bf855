import { useActorRef, useSelector } from '@xstate/react';
import { createContext, createElement, type ReactNode, useContext } from 'react';
import type { ActorOptions, ActorRefFrom, AnyActorLogic, InputFrom, SnapshotFrom } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';

type SessionLogic = typeof sessionMachine;
type SessionOptions = ActorOptions<SessionLogic> & { input: InputFrom<SessionLogic> };
export type SessionActor = ActorRefFrom<SessionLogic>;

const SessionContext = createContext<SessionActor | null>(null);

type ProviderProps = { children?: ReactNode } & (
  | {
      /**
       * An actor already running (the app's: started as its script runs, so that its first work, the cookies'
       * check and the profile calls, is done before React's first render instead of in the effects after it).
       */
      actor: SessionActor;
      logic?: never;
      options?: never;
    }
  | { actor?: never; logic?: SessionLogic; options: SessionOptions }
);

/** An actor of its own, made and started by @xstate/react (tests, and logic given as a prop). */
function OwnSession({
  logic,
  options,
  children,
}: {
  logic: SessionLogic;
  options: SessionOptions;
  children?: ReactNode;
}) {
  const actor = useActorRef(logic, options);
  return createElement(SessionContext.Provider, { value: actor }, children);
}

function Provider(props: ProviderProps) {
  if (props.actor) return createElement(SessionContext.Provider, { value: props.actor }, props.children);
  return createElement(OwnSession, { logic: props.logic ?? sessionMachine, options: props.options }, props.children);
}

function useSessionActor(): SessionActor {
  const actor = useContext(SessionContext);
  if (!actor) throw new Error('A session hook was used outside <Session.Provider>.');
  return actor;
}

/**
 * The one session actor of the app, the root of its actor system; views select from it and send it events.
 * (`createActorContext`'s shape, with a Provider that also takes a running actor.)
 */
export const Session = {
  Provider,
  useActorRef: useSessionActor,
  useSelector: <T>(selector: (snapshot: SnapshotFrom<SessionLogic>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(useSessionActor(), selector, compare),
};

/** A child actor of the session by id (an invoked one: `loginForm`, `kycGate`), or undefined when it is not running. */
export function useSessionChild<TLogic extends AnyActorLogic>(id: string): ActorRefFrom<TLogic> | undefined {
  return Session.useSelector((s) => s.children[id as keyof typeof s.children]) as ActorRefFrom<TLogic> | undefined;
}

export { useSelector };
