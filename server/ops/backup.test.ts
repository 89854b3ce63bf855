import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { extract as tarExtract, pack as tarPack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { type Db, openDatabase } from '../db/database';
import { MIGRATION_NAMES, migrateToLatest } from '../db/migrate';
import { platformBankAccount, postEntry, walletAccount } from '../domain/ledger';
import { createLogger } from '../logger';
import { book, call, openListing, type Server } from '../routes/trade-testing';
import { type FreshDatabase, freshDatabase, freshServer, userIdOf } from '../test-support';
import { backup } from './backup';
import { backupAndRecord, scheduleBackups } from './backup-run';
import { readDatabaseFigures } from './figures';
import { jobState } from './jobs';
import { RestoreError, restore } from './restore';
import { checkRestored } from './restore-check';

/** The archive's entries, by name. */
async function entriesOf(archive: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tarExtract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      entries.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(Readable.from([gunzipSync(readFileSync(archive))]), extract as unknown as Writable);
  return entries;
}

/** Writes `entries` as an archive of the backup's shape. */
async function packInto(file: string, entries: Map<string, Buffer>) {
  const tar = tarPack();
  const chunks: Buffer[] = [];
  tar.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => tar.on('end', () => resolve()));
  for (const [name, bytes] of entries) tar.entry({ name }, bytes);
  tar.finalize();
  await done;
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
}

/** pg_dump and pg_restore on the PATH: the PostgreSQL drill needs them. */
const pgToolsThere = (() => {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    execFileSync('pg_restore', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The drill, on the engine under test: purchases go on while the backup runs; the archive is restored into a
 * fresh folder (and, on PostgreSQL, a fresh database); the restored database passes its checks, holds every
 * purchase confirmed before the backup began, and a server starts on it.
 */
describe('backup and restore', () => {
  let s: Server;
  let seller: string;
  let sellerId: number;
  let restored: FreshDatabase;
  const work = mkdtempSync(join(tmpdir(), 'sb-backup-test-'));
  const archive = join(work, 'backup.tar.gz');
  const upload = { id: 'drill-proof.pdf', bytes: Buffer.from('%PDF-1.4 a proof of payment for the drill\n') };

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
    sellerId = await userIdOf(s.db, 'seller@demo.test');
    // money enough for the drill's purchases, as an approved deposit brings it
    const now = s.clock.now();
    const [wallet, bank] = [
      await walletAccount(s.db, sellerId, 'GBP', now),
      await platformBankAccount(s.db, 'GBP', now),
    ];
    await postEntry(
      s.db,
      {
        kind: 'deposit',
        reference: 'backup-drill',
        description: 'Deposit approved',
        lines: [
          { accountId: wallet, currency: 'GBP', amount: 50_000_000 },
          { accountId: bank, currency: 'GBP', amount: -50_000_000 },
        ],
      },
      now,
    );
    // an upload, as the router stores one: the file under its random name, its row in `files`
    mkdirSync(join(s.dataDir, 'uploads'), { recursive: true });
    writeFileSync(join(s.dataDir, 'uploads', upload.id), upload.bytes);
    await s.db
      .insertInto('files')
      .values({
        id: upload.id,
        owner_id: sellerId,
        operation_id: 'sendDepositRequest',
        field: 'proof',
        kind: 'pdf',
        mime: 'application/pdf',
        size: upload.bytes.length,
        sha256: createHash('sha256').update(upload.bytes).digest('hex'),
        original_name: 'proof.pdf',
        created_at: s.clock.now().toISOString(),
      })
      .execute();
  });
  afterAll(async () => {
    await restored?.close();
    await s?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const source = () => ({ dataDir: s.dataDir, databaseUrl: s.engine === 'postgres' ? s.target : null });

  async function purchase(): Promise<number> {
    // two tickets at least: the two buyers may pick the same listing at the same moment
    const listing = await openListing(s, sellerId, { minAvailable: 2 });
    const booking = await book(s, seller, listing, 1);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    if ((paid.body.data?.result as { status: number } | undefined)?.status !== 1)
      throw new Error(`purchase not confirmed: ${JSON.stringify(paid.body)}`);
    return booking.booking_id;
  }

  const toolsMissing = () => s.engine === 'postgres' && !pgToolsThere;

  it('backs up during purchases, restores into a fresh place, and the restored shop holds every purchase confirmed before', async (ctx) => {
    if (toolsMissing()) ctx.skip();
    const confirmed: number[] = [];
    let stop = false;
    const load = Promise.all(
      [0, 1].map(async () => {
        while (!stop) confirmed.push(await purchase());
      }),
    );
    await expect.poll(() => confirmed.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    const beforeBackup = [...confirmed];
    const manifest = await backup(source(), archive);
    stop = true;
    await load;
    expect(confirmed.length).toBeGreaterThan(beforeBackup.length);
    expect(manifest.files.map((f) => f.path)).toContain(`uploads/${upload.id}`);
    expect(manifest.schema.latest).toBe(MIGRATION_NAMES.toSorted().at(-1));

    restored = await freshDatabase();
    await restored.db.destroy();
    const target = {
      dataDir: join(restored.dataDir, 'data'),
      databaseUrl: s.engine === 'postgres' ? restored.target : null,
    };
    await restore(archive, target);
    expect(await checkRestored(target)).toMatchObject({ problems: [], notes: [] });
    expect(readFileSync(join(target.dataDir, 'uploads', upload.id))).toEqual(upload.bytes);

    const db: Db = openDatabase(target.databaseUrl ?? join(target.dataDir, 'portal.sqlite'));
    try {
      const statuses = await db
        .selectFrom('bookings')
        .select(['id', 'status'])
        .where('id', 'in', beforeBackup)
        .execute();
      expect(statuses.map((b) => b.status)).toEqual(beforeBackup.map(() => 'confirmed'));
      // and a server starts on it: migrated as at any start, it answers a login
      await migrateToLatest(db);
      const app = createApp({ db, clock: s.clock, log: createLogger('silent'), dataDir: target.dataDir });
      const login = await app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'seller@demo.test', password: 'Demo1234!' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await db.destroy();
    }
  }, 120_000);

  it('refuses a folder that is not empty, and a damaged archive, leaving the folder as it was', async (ctx) => {
    if (toolsMissing()) ctx.skip();
    const full = join(work, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'keep.txt'), 'mine');
    await expect(restore(archive, { dataDir: full })).rejects.toThrow(/is not empty \(keep\.txt\)/);
    expect(readFileSync(join(full, 'keep.txt'), 'utf8')).toBe('mine');

    const bytes = readFileSync(archive);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(join(work, 'damaged.tar.gz'), bytes);
    const empty = join(work, 'empty');
    const error = await restore(join(work, 'damaged.tar.gz'), { dataDir: empty }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreError);
    expect(existsSync(empty)).toBe(false);

    // a file that is no archive at all
    writeFileSync(join(work, 'notes.txt'), 'not a backup\n');
    await expect(restore(join(work, 'notes.txt'), { dataDir: empty })).rejects.toThrow(
      /cannot be read .*: is it a whole archive of npm run backup\?/,
    );
    await expect(restore(join(work, 'nowhere.tar.gz'), { dataDir: empty })).rejects.toThrow(/There is no backup at/);
  });

  it('refuses an archive whose bytes do not match their checksum, or whose schema is newer than this code', async (ctx) => {
    if (toolsMissing()) ctx.skip();
    const entries = await entriesOf(archive);
    const tampered = new Map(entries);
    tampered.set(`uploads/${upload.id}`, Buffer.from('%PDF-1.4 another proof\n'));
    await packInto(join(work, 'tampered.tar.gz'), tampered);
    await expect(restore(join(work, 'tampered.tar.gz'), { dataDir: join(work, 't1') })).rejects.toThrow(
      `uploads/${upload.id} does not match its checksum: the backup is damaged.`,
    );
    expect(existsSync(join(work, 't1'))).toBe(false);

    const manifest = JSON.parse(String(entries.get('manifest.json')));
    manifest.schema.migrations.push('0999-from-the-future');
    manifest.schema.latest = '0999-from-the-future';
    const newer = new Map(entries);
    newer.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    await packInto(join(work, 'newer.tar.gz'), newer);
    await expect(restore(join(work, 'newer.tar.gz'), { dataDir: join(work, 't2') })).rejects.toThrow(
      'The backup was made by a newer version (schema 0999-from-the-future; unknown here: 0999-from-the-future). Restore it with that version or a later one.',
    );

    const stray = new Map(entries);
    stray.set('../escape.txt', Buffer.from('x'));
    await packInto(join(work, 'stray.tar.gz'), stray);
    await expect(restore(join(work, 'stray.tar.gz'), { dataDir: join(work, 't3') })).rejects.toThrow(
      'The backup holds an entry it should not: "../escape.txt".',
    );
    expect(existsSync(join(work, 'escape.txt'))).toBe(false);
  });

  it('records the last good backup where the back office and the metrics read it', async (ctx) => {
    if (toolsMissing()) ctx.skip();
    await backupAndRecord(s.db, source(), join(work, 'recorded.tar.gz'), s.clock);
    expect((await jobState(s.db, 'backup'))?.lastOkAt).toBe(s.clock.now().toISOString());
    expect((await readDatabaseFigures(s.db, s.clock.now())).last_backup_at).toBe(s.clock.now().toISOString());
    const system = await call(s, 'GET', '/admin/system', await s.loginAs('admin@demo.test'));
    expect(system.body.data?.last_backup_at).toBe(s.clock.now().toISOString());
  });

  it('schedules a backup once across the processes and keeps the last N', async (ctx) => {
    if (toolsMissing()) ctx.skip();
    const dir = join(work, 'scheduled');
    mkdirSync(dir);
    const old = [
      'sb-portal-20261101-000000.tar.gz',
      'sb-portal-20261102-000000.tar.gz',
      'sb-portal-20261103-000000.tar.gz',
    ];
    for (const name of old) writeFileSync(join(dir, name), 'an older backup');
    writeFileSync(join(dir, 'mine.tar.gz'), 'not one of the schedule');
    const settings = { intervalMinutes: 60, keep: 2, dir };
    // the backup just recorded counts as this interval's: the schedule's first is due an interval later
    s.clock.advance(60 * 60_000);
    const runsBefore = (await jobState(s.db, 'backup'))?.runs ?? 0;
    const log = createLogger('silent');
    // two processes on one database start their schedules together: one backs up
    const [a, b] = [
      scheduleBackups(s.db, source(), settings, s.clock, log),
      scheduleBackups(s.db, source(), settings, s.clock, log),
    ];
    await Promise.all([a.stop(), b.stop()]);
    expect((await jobState(s.db, 'backup'))?.runs).toBe(runsBefore + 1);
    expect((await jobState(s.db, 'backup'))?.lastOkAt).toBe(s.clock.now().toISOString());
    const left = readdirSync(dir).sort();
    expect(left).toHaveLength(3);
    expect(left).toEqual(expect.arrayContaining(['mine.tar.gz', 'sb-portal-20261103-000000.tar.gz']));
    const made = left.find((name) => !old.includes(name) && name !== 'mine.tar.gz') as string;
    expect(made).toMatch(/^sb-portal-\d{8}-\d{6}\.tar\.gz$/);
    expect([...(await entriesOf(join(dir, made))).keys()]).toContain('manifest.json');
  });
});
