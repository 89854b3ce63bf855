/**
 * `npm run flows:path -- <machine> <number>`: runs one generated path of a machine's model test, the one the
 * flow viewer lists under that number (public/flows/<machine>.stories.json); without a number, lists them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const [machine, number] = process.argv.slice(2);
const file = machine ? join(ROOT, 'public', 'flows', `${machine}.stories.json`) : '';
if (!existsSync(join(ROOT, 'public', 'flows', 'index.json'))) {
  console.error('public/flows is not built: run npm run flows:export (npm run build runs it too)');
  process.exit(2);
}
if (!machine || !existsSync(file)) {
  console.error(
    'usage: npm run flows:path -- <machine> [<number>]; machines with stories: see public/flows/*.stories.json',
  );
  process.exit(2);
}
const { stories, file: testFile } = JSON.parse(readFileSync(file, 'utf8'));
if (!number) {
  for (const [i, s] of stories.entries()) console.info(`${i + 1}. ${s.name}`);
  process.exit(0);
}
const story = stories[Number(number) - 1];
if (!story) {
  console.error(`${machine} has ${stories.length} paths; ${number} is not one of them`);
  process.exit(2);
}
const pattern = `^.*${story.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
console.info(`${machine} path ${number}: ${story.name}`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'node', testFile, '-t', pattern], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
