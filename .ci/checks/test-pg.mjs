// `npm run test:pg`: the server tests that use a database, again on PostgreSQL, when DATABASE_URL names a server
// (a role that may create databases: each test file gets a database of its own and drops it). The files are
// those that take their database from server/test-support.ts (freshServer, freshDatabase...), which follow
// TEST_ENGINE; tests with no database (the contract loader, static files, config) ran once already on SQLite.
// Without DATABASE_URL it says so and passes, so that `npm test` works on a machine with no PostgreSQL; CI
// (.ci/run) always sets it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.info('test:pg: DATABASE_URL does not name a PostgreSQL server, so the server tests ran on SQLite only.');
  process.exit(0);
}
const files = readdirSync('server', { recursive: true })
  .map((f) => join('server', String(f)))
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => /\bfresh(Server|Database|SeededDatabase)\b/.test(readFileSync(f, 'utf8')))
  .sort();
console.info(`test:pg: ${files.length} server test files on PostgreSQL`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'node', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TEST_ENGINE: 'postgres' },
});
process.exit(run.status ?? 1);
