import { describe, expect, it } from 'vitest';
import { createActor, createMachine, StateMachine } from 'xstate';
import { lazyMachine } from './lazy-machine';

const toggle = () =>
  createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } } });

describe('lazyMachine', () => {
  it('builds the machine at its first use, once', () => {
    let builds = 0;
    const lazy = lazyMachine(() => {
      builds += 1;
      return toggle();
    });
    expect(builds).toBe(0);
    expect(lazy.id).toBe('toggle');
    expect(lazy.root.key).toBe('toggle');
    expect(builds).toBe(1);
  });

  it('runs as the machine it stands for, and looks like one', () => {
    const lazy = lazyMachine(toggle);
    const actor = createActor(lazy).start();
    actor.send({ type: 'flip' });
    expect(actor.getSnapshot().value).toBe('on');
    expect(actor.getSnapshot().matches('on')).toBe(true);
    expect(lazy).toBeInstanceOf(StateMachine);
    expect('config' in lazy).toBe(true);
    expect(Object.keys(lazy)).toEqual(Object.keys(toggle()));
    expect(actor.logic).toBe(lazy);
  });

  it('can be provided and invoked as a child', () => {
    const lazy = lazyMachine(toggle);
    const parent = createMachine({ id: 'parent', invoke: { id: 'child', src: lazy } });
    const actor = createActor(parent).start();
    const child = actor.getSnapshot().children.child;
    child?.send({ type: 'flip' });
    expect(child?.getSnapshot().value).toBe('on');
    expect(lazy.provide({}).id).toBe('toggle');
  });
});
