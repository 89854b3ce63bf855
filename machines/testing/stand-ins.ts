import { vi } from 'vitest';
import {
  type Actor,
  type AnyActorRef,
  type AnyStateMachine,
  createActor,
  createMachine,
  type EmittedFrom,
  type EventObject,
} from 'xstate';
import { controllableActors, flush } from './model';

/** A child or an actor of the app's system that only listens: it writes down every event it hears. */
export function listener() {
  const heard: EventObject[] = [];
  const logic = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
  return { logic, heard };
}

export interface StandIns<Settled extends string, Listening extends string> {
  /** The promise actors (by their name in the machine's `setup`) that the test settles by hand. */
  settled: readonly Settled[];
  /**
   * The machines the machine talks to, each replaced by a `listener`: its children (by their name in
   * `setup`) and the actors of the app's system it finds by `system.get` (by their system id).
   */
  listening?: { children?: readonly Listening[]; system?: readonly Listening[] };
  /** An invoke whose id is not its actor's name: `{ refreshDetails: 'loadDetails' }`. */
  invokedAs?: Record<string, Settled>;
  /** The machine's named delays in ms: a path's `after.<name>` step lets that much fake time pass. */
  delays?: Record<string, number>;
  input?: unknown;
}

/**
 * Starts a machine for a model test with every actor it invokes stood in for: promise actors the path settles,
 * listeners for the child machines and system actors it talks to. `perform` carries out a path's steps that are
 * not plain events (`replay`'s third argument); `heard(name)` is what a listener heard; `emitted` is what the
 * machine emitted (toasts and the like), in order. A path with delays needs `vi.useFakeTimers()`.
 */
export function startWithStandIns<
  M extends AnyStateMachine,
  const Settled extends string,
  const Listening extends string,
>(machine: M, options: StandIns<Settled, Listening>) {
  const control = controllableActors(options.settled);
  const listeners = new Map<string, ReturnType<typeof listener>>();
  const children = Object.fromEntries(
    (options.listening?.children ?? []).map((name) => {
      const stand = listener();
      listeners.set(name, stand);
      return [name, stand.logic as never];
    }),
  );
  const provided = machine.provide({ actors: { ...control.actors, ...children } } as never) as M;
  const actor = createActor(provided, { input: options.input } as never) as Actor<M>;
  for (const systemId of options.listening?.system ?? []) {
    const stand = listener();
    listeners.set(systemId, stand);
    // it joins the machine's actor system, as the menu counts share the app's with the wallet
    createActor(stand.logic, { parent: actor as AnyActorRef, systemId }).start();
  }
  const emitted: EmittedFrom<M>[] = [];
  actor.on('*', (e) => emitted.push(e as EmittedFrom<M>));
  actor.start();

  const perform = async (event: EventObject) => {
    const after = /^after\.(.+)$/.exec(event.type);
    if (after?.[1]) {
      const ms = options.delays?.[after[1]] ?? Number(after[1]);
      if (!Number.isFinite(ms)) throw new Error(`no duration for ${event.type}: name it in delays`);
      await vi.advanceTimersByTimeAsync(ms);
      await flush();
      return true;
    }
    const invoked = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    const alias = invoked?.[2] ? options.invokedAs?.[invoked[2]] : undefined;
    return control.settle(alias ? { ...event, type: `xstate.${invoked?.[1]}.actor.${alias}` } : event);
  };

  return {
    actor,
    control,
    emitted,
    perform,
    heard: (name: Listening): readonly EventObject[] => listeners.get(name)?.heard ?? [],
    async stop() {
      actor.stop();
      await flush();
    },
  };
}
