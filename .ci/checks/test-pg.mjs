// `npm run test:pg`: the server tests again, on PostgreSQL, when DATABASE_URL names a server (a role that may
// create databases: each test file gets a database of its own and drops it). Without DATABASE_URL it says so and
// passes, so that `npm test` works on a machine with no PostgreSQL; CI (.ci/run) always sets it.
import { spawnSync } from 'node:child_process';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.info('test:pg: DATABASE_URL does not name a PostgreSQL server, so the server tests ran on SQLite only.');
  process.exit(0);
}
const run = spawnSync('npx', ['vitest', 'run', '--project', 'node', 'server/'], {
  stdio: 'inherit',
  env: { ...process.env, TEST_ENGINE: 'postgres' },
});
process.exit(run.status ?? 1);
