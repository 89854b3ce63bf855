import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import { sql } from 'kysely';
import { extract as tarExtract } from 'tar-stream';
import { openDatabase } from '../db/database';
import { type Manifest, type ManifestFile, PG_DUMP_ENTRY, SQLITE_ENTRY, unknownMigrations } from './backup';

export class RestoreError extends Error {}

const run = promisify(execFile);

export interface RestoreTarget {
  /** An empty (or absent) folder: it receives `uploads/` and, on SQLite, `portal.sqlite`. */
  dataDir: string;
  /** `DATABASE_URL`: an empty PostgreSQL database for a PostgreSQL backup (pg_restore). */
  databaseUrl?: string | null;
}

const ENTRY = /^(portal\.sqlite|database\.pgdump|manifest\.json|uploads\/[\w.-]+)$/;

/**
 * Restores an archive of `backup` into an empty DATA_DIR (and, for a PostgreSQL backup, an empty database). It
 * refuses a folder that holds anything, so that nothing is ever overwritten; unpacks into a hidden folder inside
 * it, checking each entry's size and SHA-256 against the manifest and the schema version against this code (a
 * backup made by a newer version is refused; an older one is migrated when the server starts, as usual); and
 * only then moves the files into place. Anything it refuses leaves the folder as empty as it found it.
 */
export async function restore(archive: string, target: RestoreTarget): Promise<Manifest> {
  if (!existsSync(archive)) throw new RestoreError(`There is no backup at ${archive}.`);
  const dir = target.dataDir;
  const present = existsSync(dir) ? readdirSync(dir) : [];
  if (present.length > 0) {
    throw new RestoreError(
      `DATA_DIR ${dir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? '...' : ''}): a backup is restored only into an empty folder, so that nothing is overwritten.`,
    );
  }
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const stage = join(dir, '.restoring');
  try {
    mkdirSync(join(stage, 'uploads'), { recursive: true });
    const found = await unpack(archive, stage);
    const manifest = check(found, stage);
    if (manifest.engine === 'postgres') await restorePostgres(join(stage, PG_DUMP_ENTRY), target.databaseUrl);
    else {
      if (target.databaseUrl) {
        throw new RestoreError('This is a backup of a SQLite database: restore it without DATABASE_URL.');
      }
      renameSync(join(stage, SQLITE_ENTRY), join(dir, SQLITE_ENTRY));
    }
    renameSync(join(stage, 'uploads'), join(dir, 'uploads'));
    rmSync(stage, { recursive: true, force: true });
    return manifest;
  } catch (error) {
    // leave the folder as it was: empty, or absent
    if (created) rmSync(dir, { recursive: true, force: true });
    else for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
    throw error;
  }
}

/** Unpacks every entry into `stage`, hashing each on the way; answers what it found. */
async function unpack(archive: string, stage: string): Promise<Map<string, ManifestFile>> {
  const found = new Map<string, ManifestFile>();
  const extract = tarExtract();
  let refused: RestoreError | null = null;
  extract.on('entry', (header, stream, next) => {
    const name = header.name;
    if (header.type !== 'file' || !ENTRY.test(name) || found.has(name)) {
      // the refusal ends the entry's stream too: the pipeline reports it once
      stream.on('error', () => {});
      stream.resume();
      refused = new RestoreError(`The backup holds an entry it should not: ${JSON.stringify(name)}.`);
      extract.destroy(refused);
      return;
    }
    const hash = createHash('sha256');
    let size = 0;
    const out = createWriteStream(join(stage, name));
    stream.on('data', (data: unknown) => {
      const chunk = data as Buffer;
      hash.update(chunk);
      size += chunk.length;
    });
    // a damaged archive fails the whole pipeline; the entry's own error has nothing more to say
    stream.on('error', () => out.destroy());
    stream.pipe(out);
    out.on('finish', () => {
      found.set(name, { path: name, size, sha256: hash.digest('hex') });
      next();
    });
    out.on('error', (error) => extract.destroy(error));
  });
  try {
    await pipeline(createReadStream(archive), createGunzip(), extract as unknown as Writable);
  } catch (error) {
    if (refused) throw refused;
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(
      `The backup cannot be read (${(error as Error).message}): is it a whole archive of npm run backup?`,
    );
  }
  return found;
}

/** The manifest, once every entry matches it and its schema is one this code can serve. */
function check(found: Map<string, ManifestFile>, stage: string): Manifest {
  if (!found.has('manifest.json')) throw new RestoreError('The backup has no manifest: it is not whole.');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(stage, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new RestoreError("The backup's manifest cannot be read.");
  }
  if (manifest.format !== 'sb-portal-backup/1')
    throw new RestoreError(`The backup's format ${manifest.format} is unknown.`);
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const file of manifest.files) {
    const got = found.get(file.path);
    if (!got) throw new RestoreError(`The backup lacks ${file.path}, which its manifest lists.`);
    if (got.size !== file.size || got.sha256 !== file.sha256) {
      throw new RestoreError(`${file.path} does not match its checksum: the backup is damaged.`);
    }
  }
  for (const name of found.keys())
    if (name !== 'manifest.json' && !listed.has(name)) throw new RestoreError(`${name} is not in the manifest.`);
  const newer = unknownMigrations(manifest.schema.migrations);
  if (newer.length > 0) {
    throw new RestoreError(
      `The backup was made by a newer version (schema ${manifest.schema.latest}; unknown here: ${newer.join(', ')}). Restore it with that version or a later one.`,
    );
  }
  return manifest;
}

async function restorePostgres(dump: string, url: string | null | undefined) {
  if (!url) throw new RestoreError('This is a backup of a PostgreSQL database: set DATABASE_URL to an empty database.');
  const db = openDatabase(url, { poolSize: 1 });
  try {
    const tables = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`.execute(db);
    if (Number(tables.rows[0]?.n ?? 0) > 0) {
      throw new RestoreError(
        'The database of DATABASE_URL is not empty: a backup is restored only into an empty database.',
      );
    }
  } finally {
    await db.destroy();
  }
  try {
    await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, dump]);
  } catch (error) {
    throw new RestoreError(`pg_restore failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
  }
}
