import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { FLOWS_DIR } from './flows-dir';

// The flows: every machine of machines/ written out for people, not for the app.
//   <id>.machine.json  the machine's config as JSON: what Stately's editor and visualiser import (paste or
//                      "Import from JSON"); createMachine(json) gives back the same states and transitions.
//   <id>.view.json     the chart laid out by ELK (elkjs, at export time: the browser gets positions, not a
//                      layout engine), for the viewer at /flows.
//   <id>.stories.json  the model tests' generated paths as readable steps (written by machines/testing/model.ts).
//   index.json         the machines, their descriptions and files.
// `npm run flows:export` writes them into public/flows (FLOWS_DIR); the builds run it, and git ignores the folder.
// `npm run flows:check` exports twice into temporary folders and fails when the two differ or the viewer would
// miss a file.

export { FLOWS_DIR };
export const ROOT = resolve(import.meta.dirname, '../..');
export const MACHINES_DIR = join(ROOT, 'machines');

/** A transition as JSON: targets by `#id`, the guard and actions by name. */
export interface TransitionJson {
  target?: string[];
  guard?: string;
  actions?: string[];
  reenter?: true;
  description?: string;
}

export interface InvokeJson {
  id: string;
  src: string;
  onDone?: TransitionJson[];
  onError?: TransitionJson[];
}

/** A state node as JSON, in the shape of a machine config. */
export interface StateJson {
  id: string;
  type?: 'parallel' | 'final' | 'history';
  history?: 'shallow' | 'deep';
  initial?: string;
  description?: string;
  tags?: string[];
  entry?: string[];
  exit?: string[];
  invoke?: InvokeJson[];
  on?: Record<string, TransitionJson[]>;
  after?: Record<string, TransitionJson[]>;
  always?: TransitionJson[];
  states?: Record<string, StateJson>;
}

export interface MachineEntry {
  id: string;
  /** the export's name and file: `sessionMachine` in machines/session.machine.ts */
  exportName: string;
  file: string;
  description: string;
  machine: AnyStateMachine;
}

/** Every machine the files of machines/ export, with the JSDoc comment above its export as its description. */
export async function findMachines(): Promise<MachineEntry[]> {
  // machines/ and its area folders (machines/admin/...)
  const files = readdirSync(MACHINES_DIR, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.machine.ts') && !f.startsWith('testing/'))
    .sort();
  const found: MachineEntry[] = [];
  for (const file of files) {
    const source = readFileSync(join(MACHINES_DIR, file), 'utf8');
    const mod = (await import(join(MACHINES_DIR, file))) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(mod)) {
      if (!isMachine(value)) continue;
      found.push({
        id: value.id,
        exportName,
        file: `machines/${file}`,
        description: docOf(source, exportName),
        machine: value,
      });
    }
  }
  const ids = new Set<string>();
  for (const m of found) {
    if (ids.has(m.id)) throw new Error(`two machines have the id "${m.id}": each flow needs its own`);
    ids.add(m.id);
  }
  return found.sort((a, b) => a.id.localeCompare(b.id));
}

function isMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'root' in value &&
    'config' in value &&
    typeof (value as { transition?: unknown }).transition === 'function'
  );
}

/** The JSDoc comment right above `export const <name>`, as plain text. */
function docOf(source: string, exportName: string): string {
  const at = source.search(new RegExp(`export const ${exportName}\\b`));
  if (at < 0) return '';
  const before = source.slice(0, at).trimEnd();
  if (!before.endsWith('*/')) return '';
  const start = before.lastIndexOf('/**');
  if (start < 0) return '';
  return before
    .slice(start + 3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\{@link ([^}]+)\}/g, '$1')
    .trim();
}

// ---------------------------------------------------------------------------------------------------------
// machine -> JSON

type Named = { type?: unknown; name?: unknown; id?: unknown; src?: unknown };

/** An action's, guard's or actor's name: the string it was given, its `type`, or its function's name. */
export function nameOf(thing: unknown, fallback: string): string {
  if (typeof thing === 'string') return thing;
  const named = thing as Named | null;
  if (named && typeof named === 'object' && typeof named.type === 'string') {
    // built-in guards and(…), or(…), not(…) carry their parts
    const parts = (thing as { guards?: unknown[] }).guards;
    if (Array.isArray(parts) && /^xstate\.(and|or|not)$/.test(named.type)) {
      const op = named.type.slice('xstate.'.length);
      return `${op}(${parts.map((p) => nameOf(p, 'guard')).join(', ')})`;
    }
    return named.type;
  }
  if (typeof thing === 'function') {
    const fn = thing as { type?: unknown; name: string };
    if (typeof fn.type === 'string' && fn.type.startsWith('xstate.')) return fn.type.slice('xstate.'.length);
    return fn.name && fn.name !== 'anonymous' ? fn.name : fallback;
  }
  return fallback;
}

function transitionJson(t: AnyTransitionDefinition): TransitionJson {
  const out: TransitionJson = {};
  const targets = (t.target ?? []) as AnyStateNode[];
  if (targets.length > 0) out.target = targets.map((n) => `#${n.id}`);
  if (t.guard) out.guard = nameOf(t.guard, 'inline guard');
  const actions = (t.actions ?? []).map((a: unknown) => nameOf(a, 'inline action'));
  if (actions.length > 0) out.actions = actions;
  if (t.reenter) out.reenter = true;
  if (t.description) out.description = t.description;
  return out;
}

const DONE_ACTOR = /^xstate\.(done|error)\.actor\.(.+)$/;
const AFTER = /^xstate\.after\.(.+)\.[^.]+(\.[^.]+)*$/;

function stateJson(node: AnyStateNode): StateJson {
  const out: StateJson = { id: node.id };
  if (node.type === 'parallel' || node.type === 'final' || node.type === 'history') out.type = node.type;
  if (node.type === 'history') out.history = node.history === 'deep' ? 'deep' : 'shallow';
  const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
  if (node.type === 'compound' && initial) out.initial = initial.key;
  if (node.description) out.description = node.description;
  if (node.tags && node.tags.length > 0) out.tags = [...node.tags];
  const entry = node.entry.map((a: unknown) => nameOf(a, 'inline action'));
  if (entry.length > 0) out.entry = entry;
  const exit = node.exit.map((a: unknown) => nameOf(a, 'inline action'));
  if (exit.length > 0) out.exit = exit;

  const invokes: InvokeJson[] = node.invoke.map((inv: Named) => ({
    id: String(inv.id),
    src: typeof inv.src === 'string' ? inv.src : nameOf(inv.src, String(inv.id)),
  }));
  const delays = new Map<string, string>();
  for (const d of node.after ?? []) delays.set(d.eventType, String(d.delay));
  const on: Record<string, TransitionJson[]> = {};
  const after: Record<string, TransitionJson[]> = {};
  for (const [eventType, list] of node.transitions) {
    const json = (list as AnyTransitionDefinition[]).map(transitionJson);
    const done = DONE_ACTOR.exec(eventType);
    const invoke = done ? invokes.find((i) => i.id === done[2]) : undefined;
    if (done && invoke) {
      if (done[1] === 'done') invoke.onDone = json;
      else invoke.onError = json;
    } else if (delays.has(eventType) || AFTER.test(eventType)) {
      after[delays.get(eventType) ?? eventType] = json;
    } else {
      on[eventType] = json;
    }
  }
  if (invokes.length > 0) out.invoke = invokes;
  if (Object.keys(on).length > 0) out.on = on;
  if (Object.keys(after).length > 0) out.after = after;
  if (node.always && node.always.length > 0) out.always = node.always.map(transitionJson);
  const children = Object.entries(node.states as Record<string, AnyStateNode>);
  if (children.length > 0) out.states = Object.fromEntries(children.map(([key, child]) => [key, stateJson(child)]));
  return out;
}

/** The machine as a config in JSON, for Stately and for the viewer. */
export function machineJson(machine: AnyStateMachine): StateJson {
  return stateJson(machine.root);
}

// ---------------------------------------------------------------------------------------------------------
// the layout

/** A drawn state: its box (absolute), its path of keys, and the lines of text inside it. */
export interface ViewNode {
  /** the state's path of keys from the root, joined by '.': '' for the root, 'loggedOut.idle' */
  path: string;
  id: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  initial: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  /** what the box says under its name: tags, entry/exit, invoked actors, delays, events handled in place */
  lines: string[];
}

export interface ViewEdge {
  from: string;
  to: string;
  label: string;
  /** the polyline, absolute */
  points: Array<{ x: number; y: number }>;
  labelAt: { x: number; y: number; width: number; height: number };
}

export interface FlowView {
  id: string;
  width: number;
  height: number;
  nodes: ViewNode[];
  edges: ViewEdge[];
}

const CHAR = 6.6; // px per character at the viewer's 11 px monospace-ish label size
const LINE = 15;
const PAD = 10;

const textWidth = (text: string) => Math.ceil(text.length * CHAR);

/** An event's name as people read it on an arrow. */
export function eventLabel(eventType: string): string {
  const done = DONE_ACTOR.exec(eventType);
  if (done) return done[1] === 'done' ? `${done[2]} done` : `${done[2]} failed`;
  if (eventType.startsWith('xstate.done.state.')) return 'done';
  return eventType;
}

function transitionLabel(event: string, t: TransitionJson): string {
  return t.guard ? `${event} [${t.guard}]` : event;
}

interface Arrow {
  from: string;
  to: string;
  label: string;
}

/** The states (path -> json) and the arrows between them, targetless transitions kept as lines of text. */
function flatten(json: StateJson) {
  const byId = new Map<string, string>();
  const states: Array<{ path: string; key: string; json: StateJson; parent: string | null; initial: boolean }> = [];
  const walk = (s: StateJson, path: string, key: string, parent: string | null, initial: boolean) => {
    byId.set(s.id, path);
    states.push({ path, key, json: s, parent, initial });
    for (const [k, child] of Object.entries(s.states ?? {}))
      walk(child, path ? `${path}.${k}` : k, k, path, s.initial === k && s.type !== 'parallel');
  };
  walk(json, '', json.id, null, false);
  const arrows: Arrow[] = [];
  const lines = new Map<string, string[]>();
  for (const { path, json: s } of states) {
    const own: string[] = [];
    if (s.tags) own.push(`tags: ${s.tags.join(', ')}`);
    if (s.entry) own.push(`entry / ${s.entry.join(', ')}`);
    if (s.exit) own.push(`exit / ${s.exit.join(', ')}`);
    const add = (event: string, list: TransitionJson[]) => {
      for (const t of list) {
        const label = transitionLabel(event, t);
        if (!t.target || t.target.length === 0) {
          own.push(t.actions ? `${label} / ${t.actions.join(', ')}` : label);
          continue;
        }
        for (const target of t.target) {
          const to = byId.get(target.slice(1));
          if (to === undefined) throw new Error(`${s.id}: no state ${target}`);
          arrows.push({ from: path, to, label });
        }
      }
    };
    for (const inv of s.invoke ?? []) {
      own.push(`invoke ${inv.src}${inv.src === inv.id ? '' : ` as ${inv.id}`}`);
      if (inv.onDone) add(`${inv.id} done`, inv.onDone);
      if (inv.onError) add(`${inv.id} failed`, inv.onError);
    }
    for (const [delay, list] of Object.entries(s.after ?? {}))
      add(`after ${/^\d+$/.test(delay) ? `${delay} ms` : delay}`, list);
    for (const list of s.always ? [s.always] : []) add('always', list);
    for (const [event, list] of Object.entries(s.on ?? {})) add(eventLabel(event), list);
    lines.set(path, own);
  }
  return { states, arrows, lines };
}

const elkId = (path: string) => (path === '' ? '(root)' : path);

/** Lays the chart out with ELK's layered algorithm, nested states inside their parents. */
export async function layoutFlow(id: string, json: StateJson): Promise<FlowView> {
  const { states, arrows, lines } = flatten(json);
  const elkNodes = new Map<string, ElkNode>();
  for (const s of states) {
    const own = lines.get(s.path) ?? [];
    const title = s.path === '' ? id : s.key;
    const width = Math.max(90, textWidth(title) + 2 * PAD, ...own.map((l) => textWidth(l) + 2 * PAD));
    const height = LINE + 2 * PAD + own.length * LINE;
    const node: ElkNode = {
      id: elkId(s.path),
      width,
      height,
      children: [],
      edges: [],
      layoutOptions: {
        // room at the top of a compound box for its name and its lines
        'elk.padding': `[top=${height},left=${PAD * 2},bottom=${PAD * 2},right=${PAD * 2}]`,
        ...(s.json.type === 'parallel' ? { 'elk.direction': 'RIGHT', 'elk.spacing.nodeNode': '28' } : {}),
      },
    };
    elkNodes.set(s.path, node);
    if (s.parent !== null) (elkNodes.get(s.parent) as ElkNode).children?.push(node);
  }
  // the graph itself cannot be an arrow's end: the machine's own box sits in a graph of its own
  const root: ElkNode = { id: '(graph)', children: [elkNodes.get('') as ElkNode], edges: [] };
  root.layoutOptions = {
    'elk.algorithm': 'layered',
    'elk.direction': 'DOWN',
    'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    'elk.layered.spacing.nodeNodeBetweenLayers': '48',
    'elk.spacing.nodeNode': '36',
    'elk.spacing.edgeLabel': '4',
    'elk.edgeLabels.inline': 'false',
    'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  };
  const edges: ElkExtendedEdge[] = arrows.map((a, i) => ({
    id: `e${i}`,
    sources: [elkId(a.from)],
    targets: [elkId(a.to)],
    labels: [{ id: `l${i}`, text: a.label, width: textWidth(a.label) + 6, height: LINE }],
  }));
  root.edges = edges;
  const laid = await new ELK().layout(root);

  // ELK gives children relative to their parent, edges relative to their container
  const offset = new Map<string, { x: number; y: number }>();
  const nodes: ViewNode[] = [];
  const byElk = new Map(states.map((s) => [elkId(s.path), s]));
  const place = (n: ElkNode, ox: number, oy: number) => {
    const x = ox + (n.x ?? 0);
    const y = oy + (n.y ?? 0);
    offset.set(n.id, { x, y });
    const s = byElk.get(n.id);
    if (s) {
      const type = (s.json.type ?? (s.json.states ? 'compound' : 'atomic')) as ViewNode['type'];
      nodes.push({
        path: s.path,
        id: s.json.id,
        key: s.path === '' ? id : s.key,
        type,
        initial: s.initial,
        x: round(x),
        y: round(y),
        width: round(n.width ?? 0),
        height: round(n.height ?? 0),
        lines: lines.get(s.path) ?? [],
      });
    }
    for (const child of n.children ?? []) place(child, x, y);
  };
  place(laid, 0, 0);

  const viewEdges: ViewEdge[] = [];
  const collect = (n: ElkNode) => {
    for (const e of (n.edges ?? []) as Array<ElkExtendedEdge & { container?: string }>) {
      const base = offset.get(e.container ?? n.id) ?? { x: 0, y: 0 };
      const arrow = arrows[Number(e.id.slice(1))] as Arrow;
      const points: Array<{ x: number; y: number }> = [];
      for (const section of e.sections ?? []) {
        for (const p of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint])
          points.push({ x: round(base.x + p.x), y: round(base.y + p.y) });
      }
      const label = e.labels?.[0];
      viewEdges.push({
        from: arrow.from,
        to: arrow.to,
        label: arrow.label,
        points,
        labelAt: {
          x: round(base.x + (label?.x ?? 0)),
          y: round(base.y + (label?.y ?? 0)),
          width: round(label?.width ?? 0),
          height: round(label?.height ?? 0),
        },
      });
    }
    for (const child of n.children ?? []) collect(child);
  };
  collect(laid);
  viewEdges.sort((a, b) => Number(a.from > b.from) - Number(a.from < b.from) || a.label.localeCompare(b.label));
  return { id, width: round(laid.width ?? 0), height: round(laid.height ?? 0), nodes, edges: viewEdges };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The index of the flows (index.json). */
export interface FlowIndexEntry {
  id: string;
  file: string;
  exportName: string;
  description: string;
  states: number;
  transitions: number;
  /** whether a model test wrote its paths as stories (<id>.stories.json) */
  stories: boolean;
}

export function countOf(json: StateJson): { states: number; transitions: number } {
  let states = 0;
  let transitions = 0;
  const walk = (s: StateJson) => {
    states += 1;
    const lists = [
      ...Object.values(s.on ?? {}),
      ...Object.values(s.after ?? {}),
      ...(s.always ? [s.always] : []),
      ...(s.invoke ?? []).flatMap((i) => [i.onDone ?? [], i.onError ?? []]),
    ];
    for (const list of lists) transitions += list.length;
    for (const child of Object.values(s.states ?? {})) walk(child);
  };
  walk(json);
  return { states, transitions };
}

/** What `npm run flows:export` writes, file name -> content, for every machine (stories apart). */
export async function exportFlows(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const index: FlowIndexEntry[] = [];
  for (const entry of await findMachines()) {
    const json = machineJson(entry.machine);
    files.set(`${entry.id}.machine.json`, `${JSON.stringify(json, null, 2)}\n`);
    files.set(`${entry.id}.view.json`, `${JSON.stringify(await layoutFlow(entry.id, json))}\n`);
    index.push({
      id: entry.id,
      file: entry.file,
      exportName: entry.exportName,
      description: entry.description,
      ...countOf(json),
      stories: existsSync(join(FLOWS_DIR, `${entry.id}.stories.json`)),
    });
  }
  files.set('index.json', `${JSON.stringify({ machines: index }, null, 2)}\n`);
  return files;
}
