import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freshServer } from '../test-support';
import { type Answer, call, newKey, type Server, userId } from './trade-testing';

// The setup the inventory test files share (listings.test.ts, listings-edits.test.ts): a server with the demo users
// logged in, the upcoming matches, the listing form and the calls the tests make.

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface FilePart {
  field: string;
  name: string;
  type: string;
  bytes: Buffer;
}

export function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----sblisting${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

export type Listing = {
  id: number;
  ticket_id: number;
  match_id: number;
  match_name: string;
  tournament: string;
  Category: string;
  price: number;
  currency: string;
  quantity: number;
  sold: number;
  held: number;
  available: number;
  status: string;
  notes: string | null;
  files_count: number;
  restrictions: string[];
};

export let s: Server;
export let seller: string;
export let rival: string;
export let member: string;
export let sellerId: number;
export let rivalId: number;
export let upcoming: { id: number; event_date: string }[];

/** A fresh server with the demo users logged in and the upcoming matches without guest details; closed after the file. */
export function openListingsServer() {
  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
    sellerId = await userId(s, 'seller@demo.test');
    rivalId = await userId(s, 'rival@demo.test');
    upcoming = await s.db
      .selectFrom('events')
      .select(['id', 'event_date'])
      .where('event_date', '>', s.clock.now().toISOString().slice(0, 10))
      .where('guest_fields', '=', '')
      .orderBy('id')
      .execute();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });
}

export const upload = async (path: string, token: string, fields: Record<string, string>, files: FilePart[] = []) => {
  const { body, type } = multipart(fields, files);
  const res = await s.app.request(`/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': newKey() },
    body,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
};
export const form = (over: Record<string, string> = {}) => ({
  match_id: String(upcoming[0]?.id),
  category: 'Longside Lower Tier',
  ticket_block: 'Block 7',
  row: '12',
  ticket_type_id: '1',
  quantity: '4',
  split_type: 'any',
  price: '12500',
  currency: 'GBP',
  ...over,
});
export const save = async (token = seller, over: Record<string, string> = {}, files: FilePart[] = []) =>
  upload('/api/save-listing', token, form(over), files);
export const listing = (a: { body: Answer['body'] }) => a.body.data as unknown as Listing;
export const row = (id: number) =>
  s.db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
export const logsOf = async (id: number, token = seller) =>
  (
    (await call(s, 'GET', `/my-listings/ticket-logs?ticket_id=${id}`, token)).body.data as unknown as {
      logs: {
        action: string;
        field: string | null;
        old_value: string | null;
        new_value: string | null;
        user_name: string;
      }[];
    }
  ).logs;
export const uploads = () => {
  const dir = join(s.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
export const count = async (table: 'listings' | 'listing_logs' | 'files' | 'listing_files') =>
  Number(
    (
      await s.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
