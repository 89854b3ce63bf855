import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventObject } from 'xstate';
import { FLOWS_DIR } from './flows-dir';
import type { ModelPath } from './model';

// Paths as stories: the paths a model test generates, written as readable steps beside the chart in the flow
// viewer. `npm run flows:export` runs the model tests with FLOWS_WRITE=1 (and only the test that writes, not the
// replays), which writes <machine id>.stories.json into the flows' folder (flows-dir.ts).

export interface Story {
  /** the test's name: `npx vitest run <file> -t "<name>"` runs it alone (npm run flows:path does it for you) */
  name: string;
  /** which set of paths it belongs to, when a machine is tested from several starts */
  group?: string;
  /**
   * The steps in one line: where the machine starts, then each event in words ('loginForm done', 'after 5000
   * ms') and where it is then (its active leaf states, 'loggedOut.idle'), joined by ' → '. One line, not one
   * object per step: some machines have hundreds of paths.
   */
  path: string;
}

export interface FlowStories {
  machine: string;
  /** the model test file */
  file: string;
  /** what every step checks, besides being in the model's state */
  invariant: string;
  stories: Story[];
}

export const storiesFile = (machineId: string) => join(FLOWS_DIR, `${machineId}.stories.json`);

function describeEvent(event: EventObject): string {
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  if (done) return done[1] === 'done' ? `${done[2]} done` : `${done[2]} failed`;
  const after = /^after\.(.+)$/.exec(event.type);
  if (after?.[1]) return /^\d+$/.test(after[1]) ? `after ${after[1]} ms` : `after ${after[1]}`;
  if (event.type === 'xstate.init') return 'start';
  return event.type;
}

function describeState(value: unknown, prefix = ''): string[] {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (typeof value === 'string') return [join(value)];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const deeper = describeState(child, join(key));
    return deeper.length > 0 ? deeper : [join(key)];
  });
}

/** A path as a story. */
export function storyOf(path: ModelPath, group: string): Story {
  const [first, ...rest] = path.steps;
  const parts = [describeState(first?.state.value).join(' + ')];
  for (const s of rest) parts.push(describeEvent(s.event), describeState(s.state.value).join(' + '));
  return { name: path.description, ...(group ? { group } : {}), path: parts.join(' → ') };
}

/** Whether `npm run flows:export` wrote this machine as a flow (test-only machines are not). */
export const isExportedFlow = (machineId: string) => existsSync(join(FLOWS_DIR, `${machineId}.machine.json`));

/** The stories of one machine, gathered from every modelPaths call of a test file. */
const gathered = new Map<string, FlowStories>();

export function gatherStories(machineId: string, file: string, invariant: string, group: string, paths: ModelPath[]) {
  const known = gathered.get(machineId) ?? { machine: machineId, file, invariant, stories: [] };
  known.stories.push(...paths.map((p) => storyOf(p, group)));
  gathered.set(machineId, known);
  return known;
}

export const storiesJson = (stories: FlowStories) => `${JSON.stringify(stories, null, 2)}\n`;

/** The name of the test that writes a machine's stories: `npm run flows:export` runs only these. */
export const STORIES_TEST = 'its paths are written as stories';

/** Writes the stories of a machine that a test file gathered (`npm run flows:export`). */
export function writeStories(machineId: string) {
  const stories = gathered.get(machineId);
  if (stories) writeFileSync(storiesFile(machineId), storiesJson(stories));
}
