import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createMachine,
  type EventObject,
  fromPromise,
  getNextSnapshot,
} from 'xstate';
import { createTestModel } from 'xstate/graph';

type Config = Record<string, unknown> & { states?: Record<string, Config>; on?: Record<string, unknown> };

/**
 * The same statechart for path generation. `xstate/graph` refuses `invoke` and `after`, so each invoke
 * becomes transitions on the events the real actor would send (`xstate.done.actor.<id>`,
 * `xstate.error.actor.<id>`) and each delay a transition on `after.<delay>`. Every state, guard and action
 * is the machine's own: the model cannot drift from the machine.
 */
/** What the harness reads of a machine: its config and implementations (any machine fits). */
type MachineLike = Pick<AnyStateMachine, 'config' | 'implementations' | 'id'>;

export function toTestModel(machine: MachineLike, settling?: readonly string[]): AnyStateMachine {
  const convert = (config: Config, where: string): Config => {
    const copy: Config = { ...config };
    const on: Record<string, unknown> = { ...(copy.on ?? {}) };
    const invokes = copy.invoke ? (Array.isArray(copy.invoke) ? copy.invoke : [copy.invoke]) : [];
    for (const inv of invokes as Array<Record<string, unknown>>) {
      if (typeof inv.id !== 'string') throw new Error(`the invoke in "${where}" needs an id for the test model`);
      // an actor left out of `settling` never answers in this model
      if (settling && !settling.includes(inv.id)) continue;
      if (inv.onDone) on[`xstate.done.actor.${inv.id}`] = inv.onDone;
      if (inv.onError) on[`xstate.error.actor.${inv.id}`] = inv.onError;
    }
    delete copy.invoke;
    if (copy.after) {
      for (const [delay, transition] of Object.entries(copy.after as Record<string, unknown>))
        on[`after.${delay}`] = transition;
      delete copy.after;
    }
    if (Object.keys(on).length > 0) copy.on = on;
    if (copy.states) {
      copy.states = Object.fromEntries(Object.entries(copy.states).map(([k, s]) => [k, convert(s, `${where}.${k}`)]));
    }
    return copy;
  };
  return createMachine(convert(machine.config as Config, machine.id) as never, machine.implementations as never);
}

export interface ModelOptions {
  /** Sample events for the event types that need a payload (done events carry `output`, errors `error`). */
  events: EventObject[];
  input?: unknown;
  /** Only these invoked actors answer in the model (default: all). Keeps independent regions apart. */
  settling?: readonly string[];
}

/** The shortest path to every (state, incoming transition) pair of the machine. */
export function modelPaths(machine: MachineLike, options: ModelOptions): ModelPath[] {
  const logic = toTestModel(machine, options.settling);
  const model = createTestModel(logic, { events: options.events, input: options.input } as never);
  // a state's "done" event is the machine's own doing; the graph also offers it as if a test could send it
  const paths = model.getShortestPaths().filter((p) => !p.steps.some((s) => isAutomatic(s.event.type)));
  return [...paths, ...selfLoopPaths(logic, paths, options.events)].map((p) => ({
    ...p,
    description: `reaches ${JSON.stringify((p.state as AnyMachineSnapshot).value)}: ${p.steps
      .map((s) => s.event.type)
      .filter((t) => t !== 'xstate.init')
      .join(' → ')}`,
  }));
}

const isAutomatic = (type: string) => type.startsWith('xstate.done.state.');

/**
 * A transition with no target (actions only) leaves the state as it was, so a search for new states never
 * takes it. For each one, take a path that ends where it is enabled and add the step.
 */
function selfLoopPaths(logic: AnyStateMachine, paths: ModelPath[], events: EventObject[]): ModelPath[] {
  const extra: ModelPath[] = [];
  for (const node of allNodes(logic.root)) {
    for (const [type, transitions] of node.transitions) {
      if (isAutomatic(type) || !transitions.some((t) => !t.target?.length)) continue;
      const samples = events.filter((e) => e.type === type);
      const path = paths.find((p) => {
        const end = p.state as AnyMachineSnapshot;
        return end._nodes.includes(node) && (samples.length ? samples : [{ type }]).some((e) => end.can(e));
      });
      if (!path) continue;
      const end = path.state as AnyMachineSnapshot;
      const event = (samples.length ? samples : [{ type }]).find((e) => end.can(e)) ?? { type };
      const next = getNextSnapshot(logic, end, event) as AnyMachineSnapshot;
      extra.push({ ...path, state: next, steps: [...path.steps, { event, state: next }] } as ModelPath);
    }
  }
  return extra;
}

export type ModelPath = ReturnType<ReturnType<typeof createTestModel>['getShortestPaths']>[number];

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

/**
 * What the generated paths leave unvisited: state nodes never active, and transitions (source, event,
 * targets) never taken. Eventless transitions are listed only when their target was never reached.
 */
export function uncovered(machine: MachineLike, paths: readonly ModelPath[], transient: readonly string[] = []) {
  const model = toTestModel(machine);
  const nodes = allNodes(model.root);
  const reached = new Set<string>(transient);
  const taken = new Set<string>();
  for (const path of paths) {
    let previous: AnyMachineSnapshot | undefined;
    for (const step of path.steps) {
      const state = step.state as AnyMachineSnapshot;
      for (const n of state._nodes) reached.add(n.id);
      if (previous) {
        for (const source of previous._nodes) {
          const candidates = [...source.transitions].filter(([type]) => type === step.event.type || isAutomatic(type));
          for (const t of candidates.flatMap(([, list]) => list)) {
            const targets = (t.target ?? []).map((n: AnyStateNode) => n.id);
            // a transient target (left at once by an eventless transition) never shows in a snapshot
            const landed = (id: string) =>
              transient.includes(id) || state._nodes.some((n: AnyStateNode) => n.id === id);
            if (targets.every(landed)) {
              taken.add(`${source.id} --${t.eventType}--> ${targets.join(',')}`);
            }
          }
        }
      }
      previous = state;
    }
  }
  const missingStates = nodes.map((n) => n.id).filter((id) => !reached.has(id));
  const missingTransitions: string[] = [];
  for (const node of nodes) {
    for (const [type, transitions] of node.transitions) {
      for (const t of transitions) {
        const key = `${node.id} --${type}--> ${(t.target ?? []).map((n: AnyStateNode) => n.id).join(',')}`;
        if (!taken.has(key)) missingTransitions.push(key);
      }
    }
  }
  return { missingStates, missingTransitions };
}

/**
 * Stand-ins for a machine's promise actors that the test settles by hand, the way a path says:
 * `settle('xstate.done.actor.login', output)`.
 */
export function controllableActors<const Names extends string>(names: readonly Names[]) {
  const pending = new Map<string, { resolve(v: unknown): void; reject(e: unknown): void; input: unknown }>();
  const actors = Object.fromEntries(
    names.map((name) => [
      name,
      fromPromise(
        ({ input }) =>
          new Promise((resolve, reject) => {
            pending.set(name, { resolve, reject, input });
          }),
      ),
    ]),
    // `never` fits every slot of `machine.provide({ actors })`, whatever output type the machine declares
  ) as Record<Names, never>;
  return {
    actors,
    pending: (name: Names) => pending.get(name),
    isPending: (name: Names) => pending.has(name),
    async settle(event: EventObject & { output?: unknown; error?: unknown }) {
      const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
      if (!match?.[2]) return false;
      const entry = pending.get(match[2]);
      if (!entry) throw new Error(`${match[2]} is not running, so ${event.type} cannot happen`);
      pending.delete(match[2]);
      if (match[1] === 'done') entry.resolve(event.output);
      else entry.reject(event.error);
      await flush();
      return true;
    },
  };
}

export async function flush() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/**
 * Plays a generated path on the real actor and checks, after every step, that it is where the model is.
 * `perform` carries out the steps that are not plain events (settling an actor, letting a delay pass) and
 * says whether it did; every other step is sent to the actor as it is.
 */
export async function replay(
  path: ModelPath,
  actor: AnyActorRef,
  perform: (event: EventObject) => Promise<boolean>,
  check?: (real: AnyMachineSnapshot, model: AnyMachineSnapshot) => void,
) {
  for (const step of path.steps) {
    if (step.event.type !== 'xstate.init' && !(await perform(step.event))) {
      actor.send(step.event);
      await flush();
    }
    const real = actor.getSnapshot() as AnyMachineSnapshot;
    const model = step.state as AnyMachineSnapshot;
    if (JSON.stringify(real.value) !== JSON.stringify(model.value)) {
      throw new Error(
        `after ${step.event.type} the machine is in ${JSON.stringify(real.value)}, the model in ${JSON.stringify(model.value)}`,
      );
    }
    check?.(real, model);
  }
}
