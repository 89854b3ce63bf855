import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { activePaths, FLOWS_CHANNEL, inspectFlows, LAST_EVENTS, type LiveMessage, subscribeFlows } from './flows-live';

const door = createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { open: 'opened', knock: {} } },
    opened: {
      initial: 'wide',
      states: { wide: { on: { narrow: 'ajar' } }, ajar: {} },
      invoke: { id: 'alarm', src: fromPromise(() => new Promise(() => {})) },
      on: { close: 'closed' },
    },
  },
});

describe('the live side of the flow viewer', () => {
  it('a viewer in the tab sees each machine actor of the system, its state, its last events, and its end', () => {
    const seen: LiveMessage[] = [];
    const stop = subscribeFlows((m) => seen.push(m));
    const actor = createActor(door, { inspect: inspectFlows }).start();
    actor.send({ type: 'open' });
    actor.send({ type: 'narrow' });

    const last = seen.filter((m) => m.kind === 'actor').at(-1);
    if (last?.kind !== 'actor') throw new Error('no actor message');
    expect(last.actor.machineId).toBe('door');
    expect(last.actor.value).toEqual({ opened: 'ajar' });
    expect(last.actor.events.map((e) => e.type)).toEqual(['narrow', 'open']);
    // the promise actor invoked in `opened` is not a flow: only machines are told
    expect(seen.every((m) => m.kind !== 'actor' || m.actor.machineId === 'door')).toBe(true);

    for (let i = 0; i < LAST_EVENTS + 5; i++) actor.send({ type: 'knock' });
    const after = seen.filter((m) => m.kind === 'actor').at(-1);
    expect(after?.kind === 'actor' && after.actor.events.length).toBe(LAST_EVENTS);

    actor.stop();
    const ended = seen.at(-1);
    expect(ended).toMatchObject({
      kind: 'stopped',
      key: last.actor.key,
      actor: { status: 'stopped', value: { opened: 'ajar' } },
    });
    stop();
  });

  it('a later viewer gets what runs now, and a viewer that left is told nothing', () => {
    const actor = createActor(door, { inspect: inspectFlows }).start();
    actor.send({ type: 'open' });
    const first: LiveMessage[] = [];
    const stop = subscribeFlows((m) => first.push(m));
    expect(first[0]?.kind).toBe('actors');
    const running = first[0]?.kind === 'actors' ? first[0].actors.filter((a) => a.machineId === 'door') : [];
    expect(running.map((a) => a.value)).toEqual([{ opened: 'wide' }]);
    stop();
    actor.send({ type: 'close' });
    expect(first).toHaveLength(1);
    actor.stop();
  });

  it('another tab asks with hello on the flows channel and gets every running actor', async () => {
    const actor = createActor(door, { inspect: inspectFlows }).start();
    const viewer = new BroadcastChannel(FLOWS_CHANNEL);
    // every tab that runs flows answers (here also what earlier test files of this worker left running): the
    // answer of this tab is the one that lists the door
    const answer = new Promise<LiveMessage>((resolve) => {
      viewer.onmessage = (e: MessageEvent<LiveMessage>) => {
        if (e.data.kind === 'actors' && e.data.actors.some((a) => a.machineId === 'door')) resolve(e.data);
      };
    });
    viewer.postMessage({ kind: 'hello' });
    const message = await answer;
    expect(message.kind === 'actors' && message.actors.find((a) => a.machineId === 'door')?.value).toBe('closed');
    viewer.close();
    actor.stop();
  });

  it('a state value gives the paths of its active nodes', () => {
    expect(activePaths('idle')).toEqual(['idle']);
    expect(activePaths({ a: { b: 'c' } })).toEqual(['a', 'a.b', 'a.b.c']);
    expect(activePaths({ p: { left: 'on', right: 'off' } })).toEqual([
      'p',
      'p.left',
      'p.left.on',
      'p.right',
      'p.right.off',
    ]);
  });
});
