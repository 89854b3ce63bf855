import { useEffect, useState } from 'react';
import { FLOWS_CHANNEL, type LiveActor, type LiveMessage, subscribeFlows } from '../../lib/flows-live';

/** How often an open viewer says hello, so that the app's tabs keep telling it (they stop after 15 s). */
const HELLO_EVERY_MS = 5_000;
/** Ended actors kept in view. */
const MAX_ENDED = 10;

/**
 * The running actors of every tab of this browser (this one through the inspector directly, the others through
 * the flows channel), newest change first.
 */
export function useLiveActors(): LiveActor[] {
  const [actors, setActors] = useState<ReadonlyMap<string, LiveActor>>(new Map());

  useEffect(() => {
    const apply = (message: LiveMessage) =>
      setActors((known) => {
        const next = new Map(known);
        if (message.kind === 'actors') {
          for (const [key, a] of next) if (a.tab === message.tab) next.delete(key);
          for (const a of message.actors) next.set(a.key, a);
        } else if (message.kind === 'actor') next.set(message.actor.key, message.actor);
        else if (message.kind === 'stopped') {
          // kept, as ended, so that the last state of a finished flow (a purchase confirmed) stays readable;
          // the oldest ended ones go first
          next.set(message.key, message.actor);
          const ended = [...next.values()].filter((a) => a.status === 'stopped');
          for (const old of ended
            .sort((a, b) => a.updatedAt - b.updatedAt)
            .slice(0, Math.max(0, ended.length - MAX_ENDED)))
            next.delete(old.key);
        } else return known;
        return next;
      });
    const unsubscribe = subscribeFlows(apply);
    if (typeof BroadcastChannel === 'undefined') return unsubscribe;
    const channel = new BroadcastChannel(FLOWS_CHANNEL);
    channel.onmessage = (e: MessageEvent<LiveMessage>) => apply(e.data);
    const hello = () => channel.postMessage({ kind: 'hello' } satisfies LiveMessage);
    hello();
    const timer = window.setInterval(hello, HELLO_EVERY_MS);
    return () => {
      unsubscribe();
      window.clearInterval(timer);
      channel.close();
    };
  }, []);

  // running ones first, each group newest change first
  return [...actors.values()].sort(
    (a, b) => Number(a.status === 'stopped') - Number(b.status === 'stopped') || b.updatedAt - a.updatedAt,
  );
}
