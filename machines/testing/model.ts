import { relative, resolve } from 'node:path';
import { expect, it, TestRunner } from 'vitest';
import {
  type AnyActorRef,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  createMachine,
  type EventObject,
  fromPromise,
} from 'xstate';
import { createTestModel } from 'xstate/graph';
import { gatherStories, isExportedFlow, STORIES_TEST, writeStories } from './stories';

type Config = Record<string, unknown> & { states?: Record<string, Config>; on?: Record<string, unknown> };

/** What the harness reads of a machine: its config and implementations (any machine fits). */
type MachineLike = Pick<AnyStateMachine, 'config' | 'implementations' | 'id'>;

/**
 * The same statechart for path generation. `xstate/graph` refuses `invoke` and `after`, so each invoke
 * becomes transitions on the events the real actor would send (`xstate.done.actor.<id>`,
 * `xstate.error.actor.<id>`) and each delay a transition on `after.<delay>`. Every state, guard and action
 * is the machine's own: the model cannot drift from the machine.
 */
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

/** An event with whatever payload the machine reads. */
export type SampleEvent = EventObject & Record<string, unknown>;

export interface ModelOptions {
  /** Sample events for the event types that need a payload (done events carry `output`, errors `error`). */
  events: ReadonlyArray<SampleEvent>;
  input?: unknown;
  /** Only these invoked actors answer in the model (default: all). Keeps independent regions apart. */
  settling?: readonly string[];
  /** What the test checks after every step, besides the machine being in the model's state (for the stories). */
  invariant?: string;
  /** The name of this set of paths among a machine's sets (a machine tested from several starts has several). */
  story?: string;
  /**
   * What makes two snapshots the same state for the path search (default: the value and the whole context,
   * and the transition that led there). A machine whose context takes many values names what matters, and
   * the transition coverage still adds a path for every branch the samples can take.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a machine's own snapshot type, whatever it is
  identity?: (snapshot: any) => unknown;
}

export interface ModelStep {
  event: EventObject;
  state: AnyMachineSnapshot;
}

/** A generated path: the events to send from the start, and what the model says after each. */
export interface ModelPath {
  description: string;
  state: AnyMachineSnapshot;
  steps: ModelStep[];
  /** The transitions the path takes, by identity (see `transitionKey`), eventless ones included. */
  transitions: string[];
  /** The state nodes the path passes through, transient ones included. */
  nodes: string[];
}

const isAutomatic = (type: string) => type.startsWith('xstate.done.state.');

function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'inline guard';
  if (guard && typeof guard === 'object' && 'type' in guard) return String(guard.type);
  return 'guard';
}

/**
 * A transition's identity: its source, its event, its place among that event's transitions of the source,
 * its guard and its targets. Two guarded branches of one event are two transitions even when they lead to
 * the same state, so a branch that is never taken shows as missing.
 */
export function transitionKey(t: AnyTransitionDefinition): string {
  const source = t.source as AnyStateNode;
  const list: readonly AnyTransitionDefinition[] =
    t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
  const guard = t.guard ? ` if ${guardName(t.guard)}` : '';
  const targets = (t.target ?? []).map((n: AnyStateNode) => n.id).join(',') || '(stays)';
  return `${source.id} --${t.eventType || 'always'}#${list.indexOf(t)}${guard}--> ${targets}`;
}

/**
 * Steps the model by hand and records which transitions each step takes (XState reports them as
 * `@xstate.microstep` inspection events). No action runs: the scope executes nothing.
 */
function recorder(logic: AnyStateMachine, input: unknown) {
  let taken: AnyTransitionDefinition[] = [];
  const self = createActor(logic, {
    input,
    inspect: (event) => {
      if (event.type === '@xstate.microstep')
        taken.push(...(event as { _transitions: AnyTransitionDefinition[] })._transitions);
    },
  });
  const scope = {
    self,
    id: '',
    sessionId: '',
    logger: () => {},
    defer: () => {},
    system: self.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
  const record = (run: () => AnyMachineSnapshot) => {
    taken = [];
    const state = run();
    return { state, taken };
  };
  return {
    initial: () => record(() => logic.getInitialSnapshot(scope, input) as AnyMachineSnapshot),
    step: (state: AnyMachineSnapshot, event: EventObject) =>
      record(() => logic.transition(state as never, event, scope) as AnyMachineSnapshot),
  };
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

/** Every transition of the model, by identity. */
function allTransitions(logic: AnyStateMachine): string[] {
  return allNodes(logic.root).flatMap((node) => [
    ...[...node.transitions.values()].flat().map(transitionKey),
    ...(node.always ?? []).map(transitionKey),
  ]);
}

const describe = (state: AnyMachineSnapshot, steps: readonly ModelStep[]) =>
  `reaches ${JSON.stringify(state.value)}: ${steps
    .map((s) => s.event.type)
    .filter((t) => t !== 'xstate.init')
    .join(' → ')}`;

/**
 * Paths that together take every transition the sample events can take: the shortest path to every state
 * (from `xstate/graph`), then, for each transition still untaken, a path that ends where a sample event takes
 * it. Guarded branches need sample events that satisfy their guards; `uncovered` names any left out.
 */
export function modelPaths(machine: MachineLike, options: ModelOptions): ModelPath[] {
  const logic = toTestModel(machine, options.settling);
  const identity = options.identity;
  const model = createTestModel(logic, {
    events: options.events,
    input: options.input,
    ...(identity ? { serializeState: (state: AnyMachineSnapshot) => JSON.stringify(identity(state)) } : {}),
  } as never);
  const run = recorder(logic, options.input);
  const start = run.initial();

  // replays an event sequence on the model, recording what it takes
  const follow = (events: readonly EventObject[]): ModelPath => {
    const steps: ModelStep[] = [{ event: { type: 'xstate.init' }, state: start.state }];
    const transitions = new Set(start.taken.map(transitionKey));
    const nodes = new Set<string>();
    const visit = (state: AnyMachineSnapshot, taken: AnyTransitionDefinition[]) => {
      for (const n of state._nodes) nodes.add(n.id);
      for (const t of taken) nodes.add((t.source as AnyStateNode).id);
    };
    visit(start.state, start.taken);
    let state = start.state;
    for (const event of events) {
      const next = run.step(state, event);
      for (const t of next.taken) transitions.add(transitionKey(t));
      visit(next.state, next.taken);
      state = next.state;
      steps.push({ event, state });
    }
    return { description: describe(state, steps), state, steps, transitions: [...transitions], nodes: [...nodes] };
  };

  const shortest = model
    .getShortestPaths()
    // a state's "done" event is the machine's own doing; the graph also offers it as if a test could send it
    .filter((p) => !p.steps.some((s) => isAutomatic(s.event.type)))
    .map((p) => follow(p.steps.map((s) => s.event).filter((e) => e.type !== 'xstate.init')));

  const covered = new Set(shortest.flatMap((p) => p.transitions));
  const wanted = allTransitions(logic).filter((key) => !covered.has(key));
  const paths = [...shortest];
  for (let i = 0; i < paths.length && wanted.some((key) => !covered.has(key)); i++) {
    const path = paths[i] as ModelPath;
    const events = path.steps.slice(1).map((s) => s.event);
    for (let k = 0; k < path.steps.length; k++) {
      const at = (path.steps[k] as ModelStep).state;
      for (const event of candidates(at, options.events)) {
        const { taken } = run.step(at, event);
        if (!taken.some((t) => !covered.has(transitionKey(t)))) continue;
        const longer = follow([...events.slice(0, k), event]);
        for (const key of longer.transitions) covered.add(key);
        paths.push(longer);
      }
    }
  }
  // the same events with other payloads read alike: number them
  const seen = new Map<string, number>();
  const named = paths.map((p) => {
    const n = (seen.get(p.description) ?? 0) + 1;
    seen.set(p.description, n);
    return n === 1 ? p : { ...p, description: `${p.description} (${n})` };
  });
  tellStories(machine.id, options, named);
  return named;
}

const ROOT = resolve(import.meta.dirname, '../..');
const setsOf = new Map<string, number>();

/**
 * The paths as stories for the flow viewer (machines/testing/stories.ts): gathered from every call of the test
 * file and written by one test per machine, when `npm run flows:export` runs the model tests (FLOWS_WRITE=1).
 */
function tellStories(machineId: string, options: ModelOptions, paths: ModelPath[]) {
  if (process.env.FLOWS_WRITE !== '1') return;
  const { testPath } = expect.getState();
  // paths made inside a test (the harness's own tests) are not a machine's stories; nor are those of a
  // machine that is not exported as a flow (a test-only machine). Asked of the runner, not of `expect`'s
  // state: with one module graph per worker (isolate: false) that still names the previous file's last test
  // while the next file is collected, and the stories of every file but a worker's first went unwritten.
  if (!testPath || TestRunner.getCurrentTest() || !isExportedFlow(machineId)) return;
  const set = (setsOf.get(machineId) ?? 0) + 1;
  setsOf.set(machineId, set);
  gatherStories(
    machineId,
    relative(ROOT, testPath),
    options.invariant ?? 'the machine is in the state the model says',
    options.story ?? (set === 1 ? '' : `start ${set}`),
    paths,
  );
  // the export runs only these tests (their name is its filter), not the replays
  if (set === 1) it(`${machineId}: ${STORIES_TEST}`, () => writeStories(machineId));
}

/** The events worth trying in a state: every sample its nodes listen for, and a bare event where none is given. */
function candidates(state: AnyMachineSnapshot, samples: readonly SampleEvent[]): EventObject[] {
  const types = new Set<string>();
  for (const node of state._nodes) for (const type of node.transitions.keys()) if (!isAutomatic(type)) types.add(type);
  const out: EventObject[] = [];
  for (const type of types) {
    const matching = samples.filter(
      (e) => e.type === type || (type.endsWith('.*') && e.type.startsWith(type.slice(0, -1))),
    );
    if (matching.length > 0) out.push(...matching);
    else if (!type.includes('*')) out.push({ type });
  }
  return out;
}

/**
 * What the generated paths leave unvisited: state nodes never active, and transitions never taken, each
 * transition keyed by its identity (source, event, position, guard, targets).
 */
export function uncovered(machine: MachineLike, paths: readonly ModelPath[]) {
  const model = toTestModel(machine);
  const reached = new Set(paths.flatMap((p) => p.nodes));
  const taken = new Set(paths.flatMap((p) => p.transitions));
  return {
    missingStates: allNodes(model.root)
      .map((n) => n.id)
      .filter((id) => !reached.has(id)),
    missingTransitions: allTransitions(model).filter((key) => !taken.has(key)),
  };
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
    const model = step.state;
    if (JSON.stringify(real.value) !== JSON.stringify(model.value)) {
      throw new Error(
        `after ${step.event.type} the machine is in ${JSON.stringify(real.value)}, the model in ${JSON.stringify(model.value)}`,
      );
    }
    check?.(real, model);
  }
}
