/**
 * `npm run flows:export`: writes every machine of machines/ into public/flows for the flow viewer (/flows) and
 * for Stately (see machines/testing/flows.ts for the files), then runs the model tests' story writers with
 * FLOWS_WRITE=1 (not their replays) so that they write their paths as stories. `npm run build`, `build:e2e` and
 * `npm start` (through the build) run it; the folder is not in git.
 *
 * `--check` (`npm run flows:check`, run by `npm test`) exports twice, each into a temporary folder, and fails
 * when the export fails, when the two differ (the export must be deterministic), or when the viewer would miss
 * what it reads: each machine of the index with its chart, its layout and the stories the index promises, and
 * no file the index does not name.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FlowIndexEntry, FlowView, StateJson } from '../machines/testing/flows';
import type { FlowStories } from '../machines/testing/stories';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'public', 'flows');

/** One export into `dir`, in a process of its own (the flows' folder is read when the modules load). */
function exportInto(dir: string, quiet: boolean) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--write'], {
    cwd: ROOT,
    env: { ...process.env, FLOWS_DIR: dir },
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    if (quiet) process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
    throw new Error(`the export into ${dir} failed (exit ${run.status})`);
  }
}

/** The export itself, into FLOWS_DIR. */
async function write() {
  const { exportFlows, FLOWS_DIR } = await import('../machines/testing/flows');
  const { STORIES_TEST } = await import('../machines/testing/stories');
  const files = await exportFlows();
  mkdirSync(FLOWS_DIR, { recursive: true });
  // what a machine that is gone left behind (its chart, layout or stories)
  for (const name of readdirSync(FLOWS_DIR)) if (!files.has(name)) rmSync(join(FLOWS_DIR, name));
  for (const [name, content] of files) writeFileSync(join(FLOWS_DIR, name), content);
  const machines = [...files.keys()].filter((f) => f.endsWith('.machine.json')).length;
  const where = relative(ROOT, FLOWS_DIR).startsWith('..') ? FLOWS_DIR : relative(ROOT, FLOWS_DIR);
  console.info(`flows: ${machines} machines written to ${where}`);
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--project', 'node', '.model.test.ts', '--reporter=dot', '-t', STORIES_TEST],
    { cwd: ROOT, env: { ...process.env, FLOWS_WRITE: '1' }, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? '');
    process.exit(run.status ?? 1);
  }
  // the index says which machines have stories: written again now that the model tests wrote theirs
  const index = (await exportFlows()).get('index.json') as string;
  writeFileSync(join(FLOWS_DIR, 'index.json'), index);
  const stories = readdirSync(FLOWS_DIR).filter((f) => f.endsWith('.stories.json')).length;
  console.info(`flows: stories written for ${stories} machines`);
}

/** What the viewer (src/features/flows/flow-data.ts) would miss in `dir`. */
function viewerProblems(dir: string): string[] {
  const problems: string[] = [];
  const read = <T>(name: string): T | null => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;
    } catch (error) {
      problems.push(`${name}: ${existsSync(join(dir, name)) ? (error as Error).message : 'missing'}`);
      return null;
    }
  };
  const index = read<{ machines: FlowIndexEntry[] }>('index.json');
  if (!index || !Array.isArray(index.machines) || index.machines.length === 0)
    return [...problems, 'index.json lists no machines'];
  const named = new Set(['index.json']);
  for (const entry of index.machines) {
    if (!entry.id || !entry.description || !entry.file) problems.push(`index.json: ${entry.id} lacks a field`);
    named.add(`${entry.id}.machine.json`).add(`${entry.id}.view.json`);
    const chart = read<StateJson>(`${entry.id}.machine.json`);
    if (chart && chart.id !== entry.id) problems.push(`${entry.id}.machine.json is the chart of ${chart.id}`);
    const view = read<FlowView>(`${entry.id}.view.json`);
    if (view && !(view.width > 0 && view.height > 0 && Array.isArray(view.nodes) && view.nodes.length > 0))
      problems.push(`${entry.id}.view.json has no drawing`);
    if (entry.stories) {
      named.add(`${entry.id}.stories.json`);
      const stories = read<FlowStories>(`${entry.id}.stories.json`);
      if (stories && !(stories.machine === entry.id && stories.stories.length > 0))
        problems.push(`${entry.id}.stories.json tells no story of ${entry.id}`);
    }
  }
  for (const name of readdirSync(dir)) if (!named.has(name)) problems.push(`${name}: no machine of the index`);
  if (!index.machines.some((m) => m.stories)) problems.push('no machine has stories: the model tests wrote none');
  return problems;
}

if (process.argv.includes('--write')) {
  await write();
} else if (process.argv.includes('--check')) {
  const first = mkdtempSync(join(tmpdir(), 'flows-a-'));
  const second = mkdtempSync(join(tmpdir(), 'flows-b-'));
  try {
    exportInto(first, true);
    exportInto(second, true);
    const problems = viewerProblems(first);
    const names = new Set([...readdirSync(first), ...readdirSync(second)]);
    for (const name of [...names].sort()) {
      const a = existsSync(join(first, name)) ? readFileSync(join(first, name), 'utf8') : null;
      const b = existsSync(join(second, name)) ? readFileSync(join(second, name), 'utf8') : null;
      if (a !== b) problems.push(`${name} differs between two exports: the export must not depend on the run`);
    }
    if (problems.length > 0) {
      console.error(problems.join('\n'));
      process.exit(1);
    }
    const index = JSON.parse(readFileSync(join(first, 'index.json'), 'utf8')) as { machines: FlowIndexEntry[] };
    console.info(
      `flows: ${index.machines.length} machines (${index.machines.filter((m) => m.stories).length} with stories), ` +
        `${names.size} files, the same in two exports, everything the viewer reads`,
    );
  } finally {
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  }
} else {
  exportInto(OUT, false);
}
