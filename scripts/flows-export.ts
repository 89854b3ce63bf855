/**
 * `npm run flows:export`: writes every machine of machines/ into public/flows for the flow viewer (/flows) and
 * for Stately (see machines/testing/flows.ts for the files), then runs the model tests with FLOWS_WRITE=1 so
 * that they write their paths as stories. `--check` (run by `npm test`, like the contract's drift check)
 * writes nothing and fails when a machine, layout or index file is not what the machines give now; the
 * stories are checked by each model test file itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportFlows, FLOWS_DIR, ROOT } from '../machines/testing/flows';

const check = process.argv.includes('--check');
const files = await exportFlows();
const ids = new Set(
  [...files.keys()].filter((f) => f.endsWith('.machine.json')).map((f) => f.replace(/\.machine\.json$/, '')),
);
const present = existsSync(FLOWS_DIR) ? readdirSync(FLOWS_DIR).filter((f) => f.endsWith('.json')) : [];
// a file of a machine that is gone (stories included)
const stale = present.filter((f) => f !== 'index.json' && !ids.has(f.replace(/\.(machine|view|stories)\.json$/, '')));

if (check) {
  const problems: string[] = [];
  for (const [name, content] of files) {
    const path = join(FLOWS_DIR, name);
    if (!existsSync(path)) problems.push(`public/flows/${name} is missing`);
    else if (readFileSync(path, 'utf8') !== content) problems.push(`public/flows/${name} is not current`);
  }
  for (const name of stale) problems.push(`public/flows/${name} belongs to no machine`);
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\nRun npm run flows:export and commit public/flows.`);
    process.exit(1);
  }
  console.info(`flows: ${ids.size} machines, export current`);
} else {
  mkdirSync(FLOWS_DIR, { recursive: true });
  for (const [name, content] of files) writeFileSync(join(FLOWS_DIR, name), content);
  for (const name of stale) rmSync(join(FLOWS_DIR, name));
  console.info(
    `flows: ${ids.size} machines written to public/flows${stale.length ? `, ${stale.length} stale files removed` : ''}`,
  );
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'node', 'machines/'], {
    cwd: ROOT,
    env: { ...process.env, FLOWS_WRITE: '1' },
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
  // the index says which machines have stories: written again now that the model tests wrote theirs
  const index = (await exportFlows()).get('index.json') as string;
  writeFileSync(join(FLOWS_DIR, 'index.json'), index);
  const stories = readdirSync(FLOWS_DIR).filter((f) => f.endsWith('.stories.json')).length;
  console.info(`flows: stories written for ${stories} machines`);
}
