import type { InspectionEvent, StateValue } from 'xstate';

// The live side of the flow viewer (/flows): XState's inspection API on the session's actor system, which
// holds every flow the app runs (the session, its views' actors, the purchase in progress). It keeps, per
// running machine, its state and last events, and tells a viewer in this tab (subscribe) or in another tab of
// the same browser (a BroadcastChannel) when they change. Nothing is sent until a viewer asks: a viewer says
// hello when it opens and every few seconds while it stays open; a tab answers while it has heard one lately.

export const FLOWS_CHANNEL = 'sb-portal-flows';
/** A tab stops telling once no viewer has said hello for this long. */
const VIEWER_GONE_MS = 15_000;
/** The events kept per actor. */
export const LAST_EVENTS = 12;

export interface LiveActor {
  /** this tab's id and the actor's: unique across the tabs of a browser */
  key: string;
  machineId: string;
  tab: string;
  value: StateValue;
  status: string;
  /** the latest first */
  events: Array<{ type: string; at: number }>;
  updatedAt: number;
}

export type LiveMessage =
  | { kind: 'hello' }
  | { kind: 'actors'; tab: string; actors: LiveActor[] }
  | { kind: 'actor'; actor: LiveActor }
  /** an actor ended: its last state, which a viewer keeps showing as ended */
  | { kind: 'stopped'; key: string; actor: LiveActor };

const tab = Math.random().toString(36).slice(2, 8);
const actors = new Map<string, LiveActor>();
const listeners = new Set<(message: LiveMessage) => void>();
let channel: BroadcastChannel | null = null;
let viewerSeenAt = Number.NEGATIVE_INFINITY;

function openChannel() {
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(FLOWS_CHANNEL);
  channel.onmessage = (e: MessageEvent<LiveMessage>) => {
    if (e.data?.kind !== 'hello') return;
    viewerSeenAt = Date.now();
    channel?.postMessage({ kind: 'actors', tab, actors: [...actors.values()] } satisfies LiveMessage);
  };
}

function tell(message: LiveMessage) {
  for (const listener of listeners) listener(message);
  if (channel && Date.now() - viewerSeenAt < VIEWER_GONE_MS) channel.postMessage(message);
}

/** The id of a machine actor's logic, or null for other actors (promises, callbacks). */
function machineIdOf(ref: unknown): string | null {
  const logic = (ref as { logic?: { id?: unknown; root?: unknown } } | null)?.logic;
  return logic && typeof logic.id === 'string' && logic.root ? logic.id : null;
}

/** The `inspect` option of the session actor: sees every actor of its system. */
export function inspectFlows(event: InspectionEvent) {
  openChannel();
  const machineId = machineIdOf(event.actorRef);
  if (!machineId) return;
  const key = `${tab}:${event.actorRef.sessionId}`;
  const known = actors.get(key);
  if (event.type === '@xstate.event') {
    if (!known) return;
    const type = event.event.type;
    // XState's own bookkeeping (init, a child's snapshot) is not what a person reads as an event
    if (type === 'xstate.init' || type.startsWith('xstate.snapshot.')) return;
    known.events = [{ type, at: Date.now() }, ...known.events].slice(0, LAST_EVENTS);
    return;
  }
  if (event.type !== '@xstate.snapshot') return;
  const snapshot = event.snapshot as { value?: StateValue; status?: string };
  const actor: LiveActor = {
    key,
    machineId,
    tab,
    value: snapshot.value ?? '',
    status: snapshot.status ?? 'active',
    events: known?.events ?? [],
    updatedAt: Date.now(),
  };
  if (actor.status === 'stopped') {
    actors.delete(key);
    // a stopped snapshot may carry no value of its own: the last one known is where it ended
    tell({ kind: 'stopped', key, actor: { ...actor, value: known?.value ?? actor.value } });
    return;
  }
  actors.set(key, actor);
  tell({ kind: 'actor', actor });
}

/** A viewer in this tab: everything running now, then every change, until the returned function is called. */
export function subscribeFlows(listener: (message: LiveMessage) => void): () => void {
  listeners.add(listener);
  listener({ kind: 'actors', tab, actors: [...actors.values()] });
  return () => listeners.delete(listener);
}

/** The state nodes a value makes active, as paths of keys: {a: {b: 'c'}} -> a, a.b, a.b.c. */
export function activePaths(value: StateValue, prefix = ''): string[] {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (typeof value === 'string') return [join(value)];
  return Object.entries(value).flatMap(([key, child]) =>
    child === undefined ? [join(key)] : [join(key), ...activePaths(child as StateValue, join(key))],
  );
}
