import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition, createMachine } from 'xstate';
import { findMachines, layoutFlow, type MachineEntry, machineJson, nameOf, type StateJson } from './flows';

/** Every state of a machine by id, with its kind and initial child. */
function statesOf(machine: AnyStateMachine) {
  const out: Record<string, string> = {};
  const walk = (n: AnyStateNode) => {
    const initial = (n.initial?.target?.[0] as AnyStateNode | undefined)?.key ?? '';
    out[n.id] = `${n.type}${initial ? ` starts in ${initial}` : ''}${n.tags.length ? ` tags ${n.tags.join(',')}` : ''}`;
    for (const child of Object.values(n.states)) walk(child as AnyStateNode);
  };
  walk(machine.root);
  return out;
}

/** Every transition of a machine: source, event, guard, targets and actions, by name. */
function transitionsOf(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const say = (t: AnyTransitionDefinition) =>
    `${(t.source as AnyStateNode).id} --${t.eventType || 'always'}${t.guard ? ` if ${nameOf(t.guard, 'inline guard')}` : ''}--> ${
      (t.target ?? []).map((n: AnyStateNode) => n.id).join(',') || '(stays)'
    } / ${(t.actions ?? []).map((a: unknown) => nameOf(a, 'inline action')).join(',')}${t.reenter ? ' (re-enters)' : ''}`;
  const walk = (n: AnyStateNode) => {
    for (const list of n.transitions.values()) out.push(...(list as AnyTransitionDefinition[]).map(say));
    out.push(...(n.always ?? []).map(say));
    for (const child of Object.values(n.states)) walk(child as AnyStateNode);
  };
  walk(machine.root);
  return out.sort();
}

// found at collection time, so that each machine's layout is a test of its own (with its own time limit: one
// test laying out every machine passed 30 s on a loaded 2-core machine once there were some 60 of them)
const machines: MachineEntry[] = await findMachines();

describe('the flows export (issue 15)', () => {
  it('finds the app’s machines, each with a description from its comment', () => {
    const ids = machines.map((m) => m.id);
    for (const id of ['session', 'kycGate', 'notifications', 'dashboard', 'sideMenu', 'dateRange', 'loginForm'])
      expect(ids).toContain(id);
    for (const m of machines)
      expect(m.description, `${m.exportName} needs a /** comment */ above its export`).not.toBe('');
  });

  it('each exported JSON re-creates a machine with the same states and transitions', () => {
    for (const { id, machine } of machines) {
      const json = JSON.parse(JSON.stringify(machineJson(machine))) as StateJson;
      const again = createMachine(json as never);
      expect(statesOf(again), id).toEqual(statesOf(machine));
      expect(transitionsOf(again), id).toEqual(transitionsOf(machine));
    }
  });

  it('the JSON keeps names, never code: guards, actions and actors are strings', () => {
    const text = JSON.stringify(machines.map((m) => machineJson(m.machine)));
    expect(text).not.toMatch(/=>|function\s*\(/);
  });

  it.each(machines.map((m) => [m.id, m.machine] as const))(
    'the layout of %s places every state inside its parent, siblings apart, and draws every arrow',
    async (id, machine) => {
      const json = machineJson(machine);
      const view = await layoutFlow(id, json);
      const byPath = new Map(view.nodes.map((n) => [n.path, n]));
      expect(view.nodes.length, id).toBe(Object.keys(statesOf(machine)).length);
      for (const n of view.nodes) {
        if (n.path === '') continue;
        const parent = byPath.get(n.path.includes('.') ? n.path.slice(0, n.path.lastIndexOf('.')) : '');
        if (!parent) throw new Error(`${id}: no parent box for ${n.path}`);
        expect(n.x >= parent.x && n.y >= parent.y, `${id}: ${n.path} inside its parent`).toBe(true);
        expect(n.x + n.width <= parent.x + parent.width + 0.5, `${id}: ${n.path} inside its parent`).toBe(true);
        expect(n.y + n.height <= parent.y + parent.height + 0.5, `${id}: ${n.path} inside its parent`).toBe(true);
        for (const other of view.nodes) {
          if (other === n || other.path === '' || other.path.split('.').length !== n.path.split('.').length) continue;
          if (!other.path.startsWith(n.path.slice(0, n.path.lastIndexOf('.') + 1))) continue;
          const apart =
            n.x + n.width <= other.x ||
            other.x + other.width <= n.x ||
            n.y + n.height <= other.y ||
            other.y + other.height <= n.y;
          expect(apart, `${id}: ${n.path} and ${other.path} overlap`).toBe(true);
        }
      }
      const targeted = transitionsOf(machine).filter((t) => !t.includes('--> (stays)')).length;
      // an arrow per target: at least one per targeted transition
      expect(view.edges.length, id).toBeGreaterThanOrEqual(targeted);
      for (const e of view.edges) expect(e.points.length, `${id}: ${e.label}`).toBeGreaterThanOrEqual(2);
    },
  );
});
