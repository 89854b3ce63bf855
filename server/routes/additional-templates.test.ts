import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { type Answer, call, newKey, type Server } from './trade-testing';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const ZIP = Buffer.from('504b0304140000000800', 'hex');

type Template = {
  template_id: number;
  name: string;
  content: string;
  file: { name: string; kind: string; size: number } | null;
  listings_count: number;
};

function multipart(fields: Record<string, string>, files: { field: string; name: string; bytes: Buffer }[] = []) {
  const boundary = `----sbtemplate${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describe('additional templates (server)', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let matchId: number;

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
    const event = await s.db
      .selectFrom('events')
      .select('id')
      .where('event_date', '>', s.clock.now().toISOString().slice(0, 10))
      .where('guest_fields', '=', '')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    matchId = event.id;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const upload = async (
    path: string,
    token: string,
    fields: Record<string, string>,
    files = [] as Parameters<typeof multipart>[1],
  ) => {
    const { body, type } = multipart(fields, files);
    const res = await s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': newKey() },
      body,
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const list = async (token = seller) =>
    ((await call(s, 'GET', '/settings/additional-templates', token)).body.data as unknown as { templates: Template[] })
      .templates;
  const add = (name: string, content: string, token = seller) =>
    call(s, 'POST', '/settings/additional-templates/add', token, { name, content });
  const listingForm = (over: Record<string, string> = {}) => ({
    match_id: String(matchId),
    category: 'Longside Lower Tier',
    ticket_block: 'Block 7',
    row: '12',
    ticket_type_id: '1',
    quantity: '2',
    split_type: 'any',
    price: '12500',
    currency: 'GBP',
    ...over,
  });

  it('adds, lists by name, updates and deletes a seller’s templates; names are unique per seller', async () => {
    // the demo seed gives the seller two templates ('Away section', 'Collection point')
    const seeded = (await list()).map((t) => t.name);
    expect(seeded).toEqual(['Away section', 'Collection point']);
    const a = await add('Pick-up', 'Collect at the box office from 2 hours before kick-off.');
    expect(a.status).toBe(200);
    const first = a.body.data as unknown as Template;
    expect(first).toMatchObject({ name: 'Pick-up', file: null, listings_count: 0 });
    expect((await add('Away end', 'Seats in the away section.')).status).toBe(200);
    expect((await list()).map((t) => t.name)).toEqual(['Away end', 'Away section', 'Collection point', 'Pick-up']);

    const taken = await add(' pick-up ', 'Another text');
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([{ path: '/body/name', message: 'You already have a template with this name.' }]);
    const blank = await add('   ', 'text');
    expect(blank.status).toBe(422);
    expect(blank.body.errors?.[0]?.path).toBe('/body/name');

    const changed = await call(s, 'POST', `/settings/additional-templates/update/${first.template_id}`, seller, {
      content: 'Collect at gate C.',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Pick-up', content: 'Collect at gate C.' });
    const empty = await call(s, 'POST', `/settings/additional-templates/update/${first.template_id}`, seller, {});
    expect(empty.status).toBe(422);

    const gone = await call(s, 'POST', `/settings/additional-templates/delete/${first.template_id}`, seller);
    expect(gone.status).toBe(200);
    expect((await list()).map((t) => t.name)).toEqual(['Away end', 'Away section', 'Collection point']);
  });

  it("answers 404 for another seller's template (read through the list, update, delete) and keeps it", async () => {
    const mine = (await add('Rival note', 'Rival text', rival)).body.data as unknown as Template;
    expect((await list()).some((t) => t.template_id === mine.template_id)).toBe(false);
    const upd = await call(s, 'POST', `/settings/additional-templates/update/${mine.template_id}`, seller, {
      name: 'Taken over',
    });
    expect(upd.status).toBe(404);
    expect(upd.body.message).toBe('Template not found.');
    const del = await call(s, 'POST', `/settings/additional-templates/delete/${mine.template_id}`, seller);
    expect(del.status).toBe(404);
    expect((await list(rival)).find((t) => t.template_id === mine.template_id)?.name).toBe('Rival note');
    // a team member without the settings permission is refused
    expect((await call(s, 'GET', '/settings/additional-templates', member)).status).toBe(403);
  });

  it('a listing carries the seller’s templates (counted on the template); another seller’s template is refused', async () => {
    const t = (await add('Lounge', 'Lounge access included.')).body.data as unknown as Template;
    const other = (await add('Rival lounge', 'x', rival)).body.data as unknown as Template;
    const saved = await upload(
      '/api/save-listing',
      seller,
      listingForm({ additional_template_ids: String(t.template_id) }),
    );
    expect(saved.status).toBe(200);
    const listing = saved.body.data as unknown as { id: number; additional_template_ids: number[] };
    expect(listing.additional_template_ids).toEqual([t.template_id]);
    expect((await list()).find((x) => x.template_id === t.template_id)?.listings_count).toBe(1);

    const refused = await upload(
      '/api/save-listing',
      seller,
      listingForm({ additional_template_ids: `${t.template_id},${other.template_id}` }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { path: '/body/additional_template_ids', message: `has templates that are not yours: ${other.template_id}` },
    ]);
    // an id past the database's integer range is just not one of the seller's (Postgres refused the query: 500)
    const huge = await upload('/api/save-listing', seller, listingForm({ additional_template_ids: '8381301957' }));
    expect(huge.status).toBe(422);
    expect(huge.body.errors).toEqual([
      { path: '/body/additional_template_ids', message: 'has templates that are not yours: 8381301957' },
    ]);
    const twice = await call(s, 'POST', '/api/bulk-listing', seller, {
      listings: [
        {
          match_id: matchId,
          category: 'Longside Lower Tier',
          ticket_block: 'B',
          row: '1',
          ticket_type_id: 1,
          quantity: 2,
          split_type: 'any',
          price: 1000,
          currency: 'GBP',
          additional_template_ids: [t.template_id, t.template_id],
        },
      ],
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors?.[0]?.path).toBe('/body/listings/0/additional_template_ids');

    // deleting the template takes it off the listing
    await call(s, 'POST', `/settings/additional-templates/delete/${t.template_id}`, seller);
    const read = await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${listing.id}`, seller);
    expect(
      (read.body.data as unknown as { ticket: { additional_template_ids: number[] } }).ticket.additional_template_ids,
    ).toEqual([]);
  });

  it('an edit replaces the templates a listing carries (logged); another seller’s template answers 404 and changes nothing', async () => {
    const a = (await add('Edit A', 'Text A')).body.data as unknown as Template;
    const b = (await add('Edit B', 'Text B')).body.data as unknown as Template;
    const foreign = (await add('Rival edit', 'x', rival)).body.data as unknown as Template;
    const saved = await upload(
      '/api/save-listing',
      seller,
      listingForm({ additional_template_ids: String(a.template_id) }),
    );
    const id = (saved.body.data as unknown as { id: number }).id;
    const edit = (body: Record<string, unknown>, token = seller) =>
      call(s, 'PUT', `/my-listings/update-ticket/${id}`, token, body);
    const carried = async () =>
      (
        (await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${id}`, seller)).body.data as unknown as {
          ticket: { additional_template_ids: number[] };
        }
      ).ticket.additional_template_ids;
    const logs = async () =>
      (
        (await call(s, 'GET', `/my-listings/ticket-logs?ticket_id=${id}`, seller)).body.data as unknown as {
          logs: { action: string; field: string | null; old_value: string | null; new_value: string | null }[];
        }
      ).logs.filter((l) => l.field === 'template_ids');

    const changed = await edit({ template_ids: [b.template_id, a.template_id] });
    expect(changed.status).toBe(200);
    const sorted = [a.template_id, b.template_id].sort((x, y) => x - y);
    expect((changed.body.data as unknown as { additional_template_ids: number[] }).additional_template_ids).toEqual(
      sorted,
    );
    expect(await carried()).toEqual(sorted);
    expect(await logs()).toEqual([
      expect.objectContaining({
        action: 'updated',
        old_value: String(a.template_id),
        new_value: sorted.join(','),
      }),
    ]);
    // the same set again (in another order) changes and logs nothing
    expect((await edit({ template_ids: sorted.slice().reverse() })).status).toBe(200);
    expect(await logs()).toHaveLength(1);

    // another seller's template, alone or beside the seller's own and another field: 404, nothing changes
    for (const template_ids of [[foreign.template_id], [a.template_id, foreign.template_id], [2 ** 31 - 1]]) {
      const refused = await edit({ template_ids, row: '99' });
      expect(refused.status, String(template_ids)).toBe(404);
      expect(refused.body.message).toBe('Template not found.');
    }
    expect(await carried()).toEqual(sorted);
    expect((await list(rival)).find((t) => t.template_id === foreign.template_id)?.listings_count).toBe(0);
    const read = await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${id}`, seller);
    expect((read.body.data as unknown as { ticket: { row: string } }).ticket.row).toBe('12');

    const twice = await edit({ template_ids: [a.template_id, a.template_id] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ path: '/body/template_ids', message: 'must not repeat a template' }]);
    const eleven = await edit({ template_ids: Array.from({ length: 11 }, () => a.template_id) });
    expect(eleven.status).toBe(422);
    expect(eleven.body.errors?.[0]?.path).toBe('/body/template_ids');

    // none: the listing no longer carries any
    const cleared = await edit({ template_ids: [] });
    expect(cleared.status).toBe(200);
    expect(await carried()).toEqual([]);
    expect((await logs())[0]).toMatchObject({ old_value: sorted.join(','), new_value: null });
    expect((await list()).find((t) => t.template_id === a.template_id)?.listings_count).toBe(0);
  });

  it('saves a template with a file through the proxy; a file of the wrong kind is refused and nothing is kept', async () => {
    const ok = await upload('/api/additional-template', seller, { name: 'Delivery', content: 'Sent by e-mail.' }, [
      { field: 'file', name: 'how-to.pdf', bytes: PDF },
    ]);
    expect(ok.status).toBe(200);
    expect((ok.body.data as unknown as Template).file).toMatchObject({
      name: 'how-to.pdf',
      kind: 'pdf',
      size: PDF.length,
    });
    const before = (await list()).length;
    const bad = await upload('/api/additional-template', seller, { name: 'Zip', content: 'x' }, [
      { field: 'file', name: 'a.pdf', bytes: ZIP },
    ]);
    expect(bad.status).toBe(415);
    expect(bad.body.message).toMatch(/^Invalid file type\. Allowed types: /);
    expect((await list()).length).toBe(before);
  });
});
