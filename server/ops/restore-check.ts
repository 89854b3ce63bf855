import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { openDatabase } from '../db/database';
import { MIGRATION_NAMES } from '../db/migrate';
import { auditLedger } from '../domain/ledger';
import { unknownMigrations } from './backup';

export interface RestoreCheck {
  /** What must be fixed before the database serves: a newer schema, a ledger that does not add up, files gone. */
  problems: string[];
  /** What is fine to know: migrations the server will apply when it starts. */
  notes: string[];
  latest: string | null;
  files: number;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * The checks a restored database must pass before it serves, on either engine (`npm run restore:check`, and the
 * backup drill's tests): its schema is this code's or older (newer is refused; older is migrated at start), the
 * ledger's audit is clean (every entry sums to zero, every balance is the sum of its lines), and every upload the
 * `files` table names is in DATA_DIR/uploads with its size and SHA-256.
 */
export async function checkRestored(target: { dataDir: string; databaseUrl?: string | null }): Promise<RestoreCheck> {
  const file = join(target.dataDir, 'portal.sqlite');
  if (!target.databaseUrl && !existsSync(file)) {
    return { problems: [`There is no database at ${file}.`], notes: [], latest: null, files: 0 };
  }
  const db = openDatabase(target.databaseUrl || file, { poolSize: 2 });
  const problems: string[] = [];
  const notes: string[] = [];
  try {
    const migrations = (
      await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)
    ).rows.map((r) => r.name);
    const newer = unknownMigrations(migrations);
    if (newer.length > 0) problems.push(`The schema is newer than this code (unknown: ${newer.join(', ')}).`);
    const pending = MIGRATION_NAMES.filter((name) => !migrations.includes(name));
    if (pending.length > 0)
      notes.push(`The server applies ${pending.length} migrations when it starts: ${pending.join(', ')}.`);
    problems.push(...(await auditLedger(db)).map((p) => `Ledger: ${p}`));
    const files = await db.selectFrom('files').select(['id', 'size', 'sha256']).execute();
    for (const f of files) {
      const path = join(target.dataDir, 'uploads', f.id);
      if (!existsSync(path)) problems.push(`Upload ${f.id} is missing from ${join(target.dataDir, 'uploads')}.`);
      else if (statSync(path).size !== Number(f.size) || (await sha256Of(path)) !== f.sha256)
        problems.push(`Upload ${f.id} does not match its size and SHA-256.`);
    }
    return { problems, notes, latest: migrations.at(-1) ?? null, files: files.length };
  } finally {
    await db.destroy();
  }
}
