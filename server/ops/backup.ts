import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { pack as tarPack } from 'tar-stream';
import { openDatabase } from '../db/database';
import { MIGRATION_NAMES } from '../db/migrate';

/** What an archive holds, written last into it (`manifest.json`): the restore checks every byte against it. */
export interface Manifest {
  format: 'sb-portal-backup/1';
  created_at: string;
  engine: 'sqlite' | 'postgres';
  /** The database's migrations when it was copied: `latest` is its schema version. */
  schema: { latest: string | null; migrations: string[] };
  /** Every entry but the manifest, with its size and SHA-256. */
  files: ManifestFile[];
  /** Uploads the database names that were gone from the folder when the backup copied them. */
  missing: string[];
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/** The database file of a SQLite backup, and the dump of a PostgreSQL one, inside the archive. */
export const SQLITE_ENTRY = 'portal.sqlite';
export const PG_DUMP_ENTRY = 'database.pgdump';

export class BackupError extends Error {}

const run = promisify(execFile);

export interface BackupSource {
  /** Where `portal.sqlite` (SQLite) and `uploads/` live. */
  dataDir: string;
  /** `DATABASE_URL`: a PostgreSQL database, dumped with pg_dump; absent: the SQLite file of `dataDir`. */
  databaseUrl?: string | null;
}

/**
 * Backs the database and its uploads up into one gzipped tar archive at `out`, without stopping the server:
 * - SQLite: SQLite's online backup API copies the database in one step of a read transaction, which in WAL mode
 *   never blocks a writer, so sales go on and the copy is the database as of one moment;
 * - PostgreSQL: pg_dump (custom format), a consistent snapshot in one transaction, likewise.
 * Then every upload the copy's `files` table names (what a restored database refers to), and last the manifest:
 * the schema version and each entry's size and SHA-256. Every entry is streamed from disk into the archive and
 * hashed on the way; the archive is written beside `out` and renamed into place once complete.
 */
export async function backup(source: BackupSource, out: string, now = new Date()): Promise<Manifest> {
  mkdirSync(dirname(out), { recursive: true });
  const stage = mkdtempSync(join(dirname(out), `.${basename(out)}.`));
  try {
    const engine = source.databaseUrl ? 'postgres' : 'sqlite';
    const { entry, schema, uploads } =
      engine === 'sqlite'
        ? await snapshotSqlite(join(source.dataDir, 'portal.sqlite'), stage)
        : await dumpPostgres(source.databaseUrl as string, stage);
    const partial = join(stage, 'archive.tar.gz');
    const manifest: Manifest = {
      format: 'sb-portal-backup/1',
      created_at: now.toISOString(),
      engine,
      schema,
      files: [],
      missing: [],
    };

    const tar = tarPack();
    const written = pipeline(tar, createGzip({ level: 6 }), createWriteStream(partial));
    const add = async (path: string, file: string) => {
      const size = statSync(file).size;
      const hash = createHash('sha256');
      await new Promise<void>((resolve, reject) => {
        const sink = tar.entry({ name: path, size, mode: 0o600, mtime: now }, (error) =>
          error ? reject(error) : resolve(),
        );
        createReadStream(file).on('error', reject).pipe(hashing(hash)).pipe(sink);
      });
      manifest.files.push({ path, size, sha256: hash.digest('hex') });
    };
    await add(entry, join(stage, entry));
    const folder = join(source.dataDir, 'uploads');
    for (const id of uploads) {
      // a name from the database: only a plain file name of the uploads folder is read
      const file = join(folder, id);
      if (!/^[\w.-]+$/.test(id) || !existsSync(file)) manifest.missing.push(id);
      else await add(`uploads/${id}`, file);
    }
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    tar.entry({ name: 'manifest.json', size: text.length, mode: 0o600, mtime: now }, text);
    tar.finalize();
    await written;
    renameSync(partial, out);
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const hashing = (hash: ReturnType<typeof createHash>) =>
  new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });

async function snapshotSqlite(file: string, stage: string) {
  if (!existsSync(file)) throw new BackupError(`There is no database at ${file}: is DATA_DIR the server's?`);
  const source = new SQLite(file, { fileMustExist: true });
  const copy = join(stage, SQLITE_ENTRY);
  try {
    source.pragma('busy_timeout = 5000');
    // every page in one step: a step is one read transaction, and a write by the server between two steps
    // would start the copy again
    await source.backup(copy, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const snapshot = new SQLite(copy, { fileMustExist: true });
  try {
    // one file: the copy leaves no write-ahead log behind
    snapshot.pragma('journal_mode = DELETE');
    const portal = snapshot
      .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('kysely_migration', 'files')")
      .pluck()
      .get();
    if (portal !== 2)
      throw new BackupError(`${file} is not an SB Portal database: it has no migrations or files table.`);
    const migrations = snapshot.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all() as string[];
    const uploads = snapshot.prepare('SELECT id FROM files ORDER BY id').pluck().all() as string[];
    return { entry: SQLITE_ENTRY, schema: schemaOf(migrations), uploads };
  } finally {
    snapshot.close();
  }
}

async function dumpPostgres(url: string, stage: string) {
  const db = openDatabase(url, { poolSize: 1 });
  let migrations: string[];
  let uploads: string[];
  try {
    // read in the dump's moment as near as may be: a migration does not run during a backup
    migrations = (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map(
      (r) => r.name,
    );
  } finally {
    await db.destroy();
  }
  const dump = join(stage, PG_DUMP_ENTRY);
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`, `--dbname=${url}`]);
  } catch (error) {
    throw new BackupError(`pg_dump failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
  }
  // the uploads the dump names, read from the dump itself
  try {
    const { stdout } = await run('pg_restore', ['--data-only', '--table=files', '--file=-', dump], {
      maxBuffer: 256 * 1024 * 1024,
    });
    uploads = idsFromCopy(stdout);
  } catch (error) {
    throw new BackupError(`pg_restore could not read the dump: ${String(error)}`);
  }
  return { entry: PG_DUMP_ENTRY, schema: schemaOf(migrations), uploads };
}

/** The first column of a `COPY public.files (...) FROM stdin;` block of pg_restore's plain output. */
function idsFromCopy(text: string): string[] {
  const ids: string[] = [];
  let inCopy = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('COPY ') && /\bfiles\b/.test(line)) inCopy = true;
    else if (inCopy && line === '\\.') inCopy = false;
    else if (inCopy && line) ids.push(line.split('\t')[0] as string);
  }
  return ids;
}

const schemaOf = (migrations: string[]) => ({ latest: migrations.at(-1) ?? null, migrations });

/** The migrations of a backup this code does not know: it was made by a newer version. */
export const unknownMigrations = (migrations: readonly string[]) =>
  migrations.filter((name) => !MIGRATION_NAMES.includes(name));
