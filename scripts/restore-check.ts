// `npm run restore:check`: the checks a restored database must pass (schema version, ledger audit, uploads),
// on the database of DATABASE_URL or DATA_DIR: after `npm run restore`, or after a pg_restore or a
// point-in-time recovery done by hand.
import { readConfig } from '../server/config';
import { checkRestored } from '../server/ops/restore-check';

const config = readConfig();
const check = await checkRestored({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
console.info(`Schema ${check.latest ?? '(none)'}; ${check.files} uploads checked.`);
for (const note of check.notes) console.info(note);
if (check.problems.length > 0) {
  console.error(`Problems:\n- ${check.problems.join('\n- ')}`);
  process.exit(1);
}
console.info('Schema, ledger audit and uploads: clean.');
