// `npm run restore -- <file>`: restores an archive of `npm run backup` into an empty DATA_DIR (and, for a
// PostgreSQL backup, the empty database of DATABASE_URL), after checking its checksums and schema version.
import { resolve } from 'node:path';
import { readConfig, StartupError } from '../server/config';
import { RestoreError, restore } from '../server/ops/restore';
import { checkRestored } from '../server/ops/restore-check';

const archive = process.argv[2];
if (!archive) {
  console.error('Usage: npm run restore -- <file.tar.gz>   (into an empty DATA_DIR; DATABASE_URL: an empty database)');
  process.exit(2);
}
try {
  const config = readConfig();
  const manifest = await restore(resolve(archive), { dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  console.info(
    `Restored ${manifest.engine} backup of ${manifest.created_at} (schema ${manifest.schema.latest}, ${manifest.files.length - 1} uploads) into ${config.dataDir}${config.databaseUrl ? ' and DATABASE_URL' : ''}.`,
  );
  const check = await checkRestored({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  for (const note of check.notes) console.info(note);
  if (check.problems.length > 0) {
    console.error(`The restored database does not pass its checks:\n- ${check.problems.join('\n- ')}`);
    process.exit(1);
  }
  console.info('Checks passed: schema, ledger audit, uploads. Start the server on it: npm start');
} catch (error) {
  if (!(error instanceof RestoreError || error instanceof StartupError)) throw error;
  console.error(`Restore refused: ${error.message}`);
  process.exit(1);
}
