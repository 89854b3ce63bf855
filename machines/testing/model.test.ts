import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { modelPaths, replay, uncovered } from './model';

/** Two guarded branches of one event that land in the same state, and an eventless choice. */
const machine = setup({
  types: { context: {} as { size: number }, events: {} as { type: 'go'; size: number } | { type: 'back' } },
  guards: {
    isBig: (_, size: number) => size > 10,
    startsBig: ({ context }) => context.size > 10,
  },
  actors: { load: fromPromise<number>(async () => 1) },
}).createMachine({
  id: 'm',
  context: { size: 0 },
  initial: 'deciding',
  states: {
    deciding: { always: [{ guard: 'startsBig', target: 'done' }, { target: 'idle' }] },
    idle: {
      on: {
        go: [
          { guard: { type: 'isBig', params: ({ event }) => event.size }, target: 'done', actions: assign({ size: 2 }) },
          { target: 'done' },
        ],
      },
    },
    done: {
      invoke: { id: 'load', src: 'load', onDone: 'idle' },
      on: { back: 'idle' },
    },
  },
});

describe('the model-test harness', () => {
  it('counts each guarded branch as its own transition, even when both reach the same state', () => {
    const smallOnly = modelPaths(machine, { events: [{ type: 'go', size: 1 }] });
    const { missingTransitions } = uncovered(machine, smallOnly);
    expect(missingTransitions).toEqual([
      'm.deciding --always#0 if startsBig--> m.done',
      'm.idle --go#0 if isBig--> m.done',
    ]);
  });

  it('adds a path for a branch that the shortest paths skip when a sample event can take it', () => {
    const paths = modelPaths(machine, {
      events: [
        { type: 'go', size: 1 },
        { type: 'go', size: 50 },
      ],
    });
    const { missingStates, missingTransitions } = uncovered(machine, paths);
    expect(missingStates).toEqual([]);
    // only the eventless branch is left: no input starts big
    expect(missingTransitions).toEqual(['m.deciding --always#0 if startsBig--> m.done']);
    const sizes = paths.flatMap((p) => p.steps.map((s) => s.event)).filter((e) => e.type === 'go');
    expect(new Set(sizes.map((e) => (e as unknown as { size: number }).size))).toEqual(new Set([1, 50]));
  });

  it('counts a transient state as reached through the transition that leaves it', () => {
    const paths = modelPaths(machine, { events: [] });
    // `deciding` is left at once, so no snapshot ever shows it
    expect(paths.some((p) => p.steps.some((s) => s.state.matches('deciding')))).toBe(false);
    expect(uncovered(machine, paths).missingStates).toEqual([]);
  });

  it('replays a path on the real actor and notices a machine that is elsewhere', async () => {
    const [path] = modelPaths(machine, { events: [{ type: 'go', size: 1 }] }).filter((p) => p.steps.length > 1);
    if (!path) throw new Error('no path');
    const held = createActor(machine.provide({ actors: { load: fromPromise(() => new Promise(() => {})) } })).start();
    await expect(replay(path, held, async () => false)).resolves.toBeUndefined();
    // the load answers at once, so the real machine is back in idle where the model waits in done
    const wrong = createActor(machine.provide({ actors: { load: fromPromise(async () => 1) } })).start();
    await expect(replay(path, wrong, async () => false)).rejects.toThrow(
      /the machine is in "idle", the model in "done"/,
    );
  });
});
