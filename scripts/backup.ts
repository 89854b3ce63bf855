// `npm run backup -- <file>`: a consistent copy of the server's database (SQLite's online backup API, or
// pg_dump when DATABASE_URL is set) and its uploads, in one archive with a manifest, while the server runs.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock } from '../server/clock';
import { readConfig, StartupError } from '../server/config';
import { openDatabase } from '../server/db/database';
import { BackupError } from '../server/ops/backup';
import { backupAndRecord } from '../server/ops/backup-run';

const out = process.argv[2];
if (!out) {
  console.error('Usage: npm run backup -- <file.tar.gz>   (DATA_DIR and DATABASE_URL as the server has them)');
  process.exit(2);
}
try {
  const config = readConfig();
  const file = resolve(out);
  // opening the database would create an empty one
  if (!config.databaseUrl && !existsSync(config.databaseFile))
    throw new BackupError(`There is no database at ${config.databaseFile}: is DATA_DIR the server's?`);
  const db = openDatabase(config.databaseUrl ?? config.databaseFile, { poolSize: 1 });
  const started = Date.now();
  try {
    const manifest = await backupAndRecord(
      db,
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
      file,
      systemClock,
    );
    const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
    console.info(
      `Backed up to ${file} in ${Date.now() - started} ms: ${manifest.engine} database at ${manifest.schema.latest}, ${manifest.files.length - 1} uploads, ${bytes} bytes before compression.`,
    );
    if (manifest.missing.length > 0)
      console.warn(
        `${manifest.missing.length} uploads the database names were not in the folder: ${manifest.missing.join(', ')}`,
      );
  } finally {
    await db.destroy();
  }
} catch (error) {
  if (!(error instanceof BackupError || error instanceof StartupError)) throw error;
  console.error(`Backup failed: ${error.message}`);
  process.exit(1);
}
