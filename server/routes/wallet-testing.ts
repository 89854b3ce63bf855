import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freshServer } from '../test-support';

// The setup the wallet's test files share (wallet*.test.ts): a server with the demo users and a second admin
// logged in, their ids by the name of their address, and the calls the tests make.

type Server = Awaited<ReturnType<typeof freshServer>>;

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

export interface FilePart {
  /** put in `filename="..."`, or as it stands when it starts with `filename*=` (RFC 5987, percent-encoded) */
  name: string;
  type: string;
  bytes: Buffer;
}

/** A multipart body built byte by byte, so that a file name can carry what a browser would never send. */
export function multipart(fields: Record<string, string>, proof?: FilePart) {
  const boundary = `----sbtest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (proof) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="proof"; ${proof.name.startsWith('filename*=') ? proof.name : `filename="${proof.name}"`}\r\ncontent-type: ${proof.type}\r\n\r\n`,
        'latin1',
      ),
      proof.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

export const VALID = { deposit_amount: '25000', currency: 'GBP', payment_transfer_by: 'ONLINE', notes: 'Sent today' };

export let s: Server;
export let seller: string;
export let rival: string;
export let member: string;
export let admin: string;
export let admin2: string;
export const ids: Record<string, number> = {};
let keySeq = 0;
/** The next number for an Idempotency-Key of this file's calls (each key is new). */
export const nextKeySeq = () => ++keySeq;

/** A fresh server with a second back-office account and the demo users logged in; closed after the file. */
export function openWalletServer() {
  beforeAll(async () => {
    s = await freshServer();
    // a second back-office account (the demo has one), with the first's password hash
    const first = await s.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'admin@demo.test')
      .executeTakeFirstOrThrow();
    const { id: _id, ...rest } = first;
    const second = await s.db
      .insertInto('users')
      .values({ ...rest, email: 'admin2@demo.test', first_name: 'Otto', user_token: `${first.user_token}-2` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db
      .insertInto('user_permissions')
      .values(
        (await s.db.selectFrom('user_permissions').selectAll().where('user_id', '=', first.id).execute()).map((p) => ({
          ...p,
          user_id: second.id,
        })),
      )
      .execute();
    [seller, rival, member, admin, admin2] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
      s.loginAs('admin@demo.test'),
      s.loginAs('admin2@demo.test'),
    ]);
    for (const u of await s.db.selectFrom('users').select(['id', 'email']).execute()) {
      ids[u.email.split('@')[0] as string] = u.id;
    }
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });
}

export const get = async <T = Record<string, unknown>>(path: string, token: string) => {
  const res = await s.json('GET', path, undefined, token);
  return { status: res.status, body: (await res.json()) as { success: boolean; message?: string; data: T } };
};
export const post = async <T = Record<string, unknown>>(path: string, token: string, body?: unknown) => {
  const res = await s.json('POST', path, body, token);
  return { status: res.status, body: (await res.json()) as { success: boolean; message?: string; data: T } };
};
export const deposit = async (
  token: string,
  fields: Record<string, string> = VALID,
  proof?: FilePart,
  key = `test-key-${nextKeySeq()}-${Date.now()}`,
) => {
  const { body, type } = multipart(fields, proof);
  const res = await s.app.request('/api/api/send-deposit-request', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': key },
    body,
  });
  return {
    status: res.status,
    replayed: res.headers.get('idempotent-replayed'),
    body: (await res.json()) as {
      success: boolean;
      message?: string;
      data: { deposit_id: number; status: string; amount: number; proof: unknown };
      errors?: { path: string; message: string }[];
    },
  };
};
export const uploads = () => {
  const dir = join(s.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
export const counts = async () => ({
  deposits: Number(
    (
      await s.db
        .selectFrom('deposits')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  files: Number(
    (
      await s.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  uploads: uploads().length,
});
export const balanceOf = async (token: string, currency: string) => {
  const { body } = await get<{ balances: { currency: string; balance: number; pending: number }[] }>(
    '/lmt-pay/details',
    token,
  );
  return body.data.balances.find((b) => b.currency === currency) ?? { balance: 0, pending: 0 };
};
