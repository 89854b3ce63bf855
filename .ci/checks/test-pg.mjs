// `npm run test:pg`: the server tests that use a database, again on PostgreSQL, when DATABASE_URL names a server
// (a role that may create databases: each test file gets a database of its own and drops it). The files are
// those that take their database from server/test-support.ts (freshServer, freshDatabase...), which follow
// TEST_ENGINE, directly or through a setup helper they import, named *-testing or *-suite (such as
// server/routes/trade-suite.ts); tests with no database (the contract loader, static files, config) ran once
// already on SQLite.
// Without DATABASE_URL it says so and passes, so that `npm test` works on a machine with no PostgreSQL; CI
// (.ci/run) always sets it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.info('test:pg: DATABASE_URL does not name a PostgreSQL server, so the server tests ran on SQLite only.');
  process.exit(0);
}
const FRESH = /\bfresh(Server|Database|SeededDatabase)\b/;
/** A test file that takes a fresh database itself, or through a setup helper it imports (*-testing, *-suite). */
function usesDatabase(file) {
  const text = readFileSync(file, 'utf8');
  if (FRESH.test(text)) return true;
  for (const [, path] of text.matchAll(/from '(\.{1,2}\/[^']+-(?:testing|suite))'/g)) {
    const helper = `${join(dirname(file), path)}.ts`;
    if (existsSync(helper) && FRESH.test(readFileSync(helper, 'utf8'))) return true;
  }
  return false;
}
const files = readdirSync('server', { recursive: true })
  .map((f) => join('server', String(f)))
  .filter((f) => f.endsWith('.test.ts'))
  .filter(usesDatabase)
  .sort();
console.info(`test:pg: ${files.length} server test files on PostgreSQL`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'node', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TEST_ENGINE: 'postgres' },
});
process.exit(run.status ?? 1);
