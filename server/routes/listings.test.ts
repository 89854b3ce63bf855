import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseDueHolds } from '../domain/purchase/holds';
import { HOLD_MS, priceBreakdown } from '../domain/purchase/pricing';
import { freshServer } from '../test-support';
import { type Answer, call, newKey, type Server, userId } from './trade-testing';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface FilePart {
  field: string;
  name: string;
  type: string;
  bytes: Buffer;
}

function multipart(fields: Record<string, string>, files: FilePart[] = []) {
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

type Listing = {
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

describe('inventory (server)', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let sellerId: number;
  let rivalId: number;
  let upcoming: { id: number; event_date: string }[];

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

  const upload = async (path: string, token: string, fields: Record<string, string>, files: FilePart[] = []) => {
    const { body, type } = multipart(fields, files);
    const res = await s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': newKey() },
      body,
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const form = (over: Record<string, string> = {}) => ({
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
  const save = async (token = seller, over: Record<string, string> = {}, files: FilePart[] = []) =>
    upload('/api/save-listing', token, form(over), files);
  const listing = (a: { body: Answer['body'] }) => a.body.data as unknown as Listing;
  const row = (id: number) => s.db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const logsOf = async (id: number, token = seller) =>
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
  const uploads = () => {
    const dir = join(s.dataDir, 'uploads');
    return existsSync(dir) ? readdirSync(dir).length : 0;
  };
  const count = async (table: 'listings' | 'listing_logs' | 'files' | 'listing_files') =>
    Number(
      (
        await s.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('lists the seller’s own listings only (hundreds of them, seeded), paged by number or by cursor alike', async () => {
    const first = await call(s, 'GET', '/my-listings?per_page=200', seller);
    expect(first.status).toBe(200);
    const data = first.body.data as unknown as { tickets: Listing[]; meta: { total: number; next_cursor: string } };
    expect(data.meta.total).toBeGreaterThan(250);
    const ownIds = new Set(
      (
        await s.db
          .selectFrom('listings')
          .select('id')
          .where('seller_id', '=', sellerId)
          .where('status', '<>', 'deleted')
          .execute()
      ).map((r) => r.id),
    );
    expect(data.meta.total).toBe(ownIds.size);
    for (const t of data.tickets) expect(ownIds.has(t.id)).toBe(true);
    // the cursor's second page is the numbered second page
    const byCursor = await call(s, 'GET', `/my-listings?per_page=200&cursor=${data.meta.next_cursor}`, seller);
    const byNumber = await call(s, 'GET', '/my-listings?per_page=200&page=2', seller);
    const ids = (a: Answer) => (a.body.data as unknown as { tickets: Listing[] }).tickets.map((t) => t.id);
    expect(ids(byCursor)).toEqual(ids(byNumber));
    expect(ids(byCursor).length).toBeGreaterThan(0);
    // sorted by price, each sort's cursor goes on in that order
    const p1 = await call(s, 'GET', '/my-listings?per_page=30&sort=price_desc', seller);
    const c = (p1.body.data as unknown as { meta: { next_cursor: string } }).meta.next_cursor;
    const p2 = await call(s, 'GET', `/my-listings?per_page=30&sort=price_desc&cursor=${c}`, seller);
    const prices = [
      ...(p1.body.data as unknown as { tickets: Listing[] }).tickets,
      ...(p2.body.data as unknown as { tickets: Listing[] }).tickets,
    ].map((t) => t.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    // a cursor of another sort, or made up, is refused
    expect((await call(s, 'GET', `/my-listings?sort=price_asc&cursor=${c}`, seller)).status).toBe(422);
    expect((await call(s, 'GET', '/my-listings?cursor=bm90LWEtY3Vyc29y', seller)).status).toBe(422);
    expect((await call(s, 'GET', '/my-listings?date_from=2030-01-02&date_to=2030-01-01', seller)).status).toBe(422);
    // the rival sees none of them; a member without `event` is refused
    const theirs = await call(s, 'GET', '/my-listings?per_page=200', rival);
    for (const t of (theirs.body.data as unknown as { tickets: Listing[] }).tickets)
      expect(ownIds.has(t.id)).toBe(false);
    expect((await call(s, 'GET', '/my-listings', member)).status).toBe(403);
  });

  it('walks every sort by cursor as by page number, with or without a status, as the filtered (built) read does', async () => {
    const tickets = (a: Answer) => (a.body.data as unknown as { tickets: Listing[] }).tickets;
    const meta = (a: Answer) =>
      (a.body.data as unknown as { meta: { total: number; next_cursor: string | null } }).meta;
    const sorts = ['match_date', 'match_date_desc', 'created_desc', 'price_asc', 'price_desc', 'quantity_desc'];
    for (const sort of sorts) {
      for (const status of ['', '&status=published', '&status=unpublished']) {
        const base = `/my-listings?per_page=40&sort=${sort}${status}`;
        // a filter that keeps every listing takes the read that is built per call, not the prepared one
        const all = `/my-listings?per_page=40&sort=${sort}${status}&date_from=2000-01-01`;
        let cursor: string | null = null;
        for (let page = 1; page <= 3; page++) {
          const byCursor = await call(s, 'GET', cursor ? `${base}&cursor=${cursor}` : base, seller);
          const byNumber = await call(s, 'GET', `${base}&page=${page}`, seller);
          const built = await call(s, 'GET', `${all}&page=${page}`, seller);
          expect(byCursor.status, `${base} page ${page}`).toBe(200);
          expect(tickets(byCursor), `${base} page ${page}`).toEqual(tickets(byNumber));
          expect(tickets(byCursor), `${base} page ${page}`).toEqual(tickets(built));
          expect(meta(byCursor).total).toBe(meta(built).total);
          cursor = meta(byCursor).next_cursor;
          if (!cursor) break;
        }
      }
    }
  });

  it('filters by status, match and match text', async () => {
    const un = await call(s, 'GET', '/my-listings?status=unpublished&per_page=200', seller);
    const list = (un.body.data as unknown as { tickets: Listing[] }).tickets;
    expect(list.length).toBeGreaterThan(0);
    for (const t of list) expect([t.status, t.available]).toEqual(['unpublished', 0]);
    const match = list[0]?.match_id as number;
    const byMatch = await call(s, 'GET', `/my-listings?match_id=${match}&per_page=200`, seller);
    for (const t of (byMatch.body.data as unknown as { tickets: Listing[] }).tickets) expect(t.match_id).toBe(match);
    const none = await call(s, 'GET', '/my-listings?q=%25_no_such_team_%25', seller);
    expect((none.body.data as unknown as { meta: { total: number } }).meta.total).toBe(0);
    // the text in the match's name, teams or competition, in any case
    const named = list[0]?.match_name as string;
    const text = named.split(' ')[0]?.toUpperCase() as string;
    const byText = await call(s, 'GET', `/my-listings?q=${encodeURIComponent(text)}&per_page=200`, seller);
    const found = (byText.body.data as unknown as { tickets: Listing[] }).tickets;
    expect(found.map((t) => t.id)).toContain(list[0]?.id);
    // (the teams are in the match's name)
    for (const t of found) expect(`${t.match_name}\n${t.tournament}`.toUpperCase()).toContain(text);
  });

  it('saves a listing that another account can then buy in the trade search, with its created log row', async () => {
    const saved = await save(seller, { quantity: '6', price: '9900' });
    expect(saved.status).toBe(200);
    const l = listing(saved);
    expect(l).toMatchObject({ quantity: 6, available: 6, sold: 0, price: 9900, status: 'published' });
    const page = await call(s, 'GET', `/purchase/lmt-trade/events/${l.match_id}?per_page=100`, rival);
    expect((page.body.data as unknown as { tickets: { sNo: number }[] }).tickets.map((t) => t.sNo)).toContain(l.id);
    expect(await logsOf(l.id)).toMatchObject([{ action: 'created', user_name: 'Sam Seller' }]);
    // unpublished from the start: not on sale
    const quiet = listing(await save(seller, { publish: 'false' }));
    expect([quiet.status, quiet.available]).toEqual(['unpublished', 0]);
    expect((await row(quiet.id)).withheld).toBe(4);
  });

  it('refuses a past match, an unknown one, a category not of the stadium, an odd quantity in pairs and absurd prices, creating nothing', async () => {
    const before = await count('listings');
    const past = await s.db
      .selectFrom('events')
      .select('id')
      .where('event_date', '<', s.clock.now().toISOString().slice(0, 10))
      .executeTakeFirst();
    if (past) {
      const r = await save(seller, { match_id: String(past.id) });
      expect(r.status).toBe(422);
      expect(r.body.errors).toContainEqual({ path: '/body/match_id', message: 'The match has already taken place.' });
    }
    expect((await save(seller, { match_id: '2147483647' })).status).toBe(404);
    const cases: [Record<string, string>, string][] = [
      [{ category: 'Roof' }, '/body/category'],
      [{ split_type: 'pairs', quantity: '3' }, '/body/split_type'],
      [{ price: '0' }, '/body/price'],
      [{ price: '-5' }, '/body/price'],
      [{ price: '10000001' }, '/body/price'],
      [{ price: '12.5' }, '/body/price'],
      [{ price: '1e3' }, '/body/price'],
      [{ quantity: '1001' }, '/body/quantity'],
      [{ quantity: '0' }, '/body/quantity'],
      [{ ticket_type_id: '7' }, '/body/ticket_type_id'],
      [{ currency: 'JPY' }, '/body/currency'],
      [{ restrictions: 'restricted_view,nope' }, '/body/restrictions'],
      [{ row: 'x'.repeat(21) }, '/body/row'],
      [{ notes: 'n'.repeat(1001) }, '/body/notes'],
    ];
    for (const [over, path] of cases) {
      const r = await save(seller, over);
      expect(r.status, JSON.stringify(over)).toBe(422);
      expect(
        r.body.errors?.map((e) => e.path),
        JSON.stringify(over),
      ).toContain(path);
    }
    expect(await count('listings')).toBe(before);
  });

  it('stores hostile text exactly as written and never interprets it', async () => {
    const notes = `=HYPERLINK("http://evil.example","x") <script>alert(1)</script> '; DROP TABLE listings; --`;
    const l = listing(await save(seller, { notes, ticket_block: '@SUM(A1)', row: '+1' }));
    expect(l.notes).toBe(notes);
    const again = await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, seller);
    expect((again.body.data as unknown as { ticket: Listing }).ticket.notes).toBe(notes);
  });

  it('keeps ticket files by their first bytes (5 MB each), refusing impostors and oversized ones with nothing kept', async () => {
    const withFile = await save(seller, {}, [
      { field: 'files', name: 'tickets.pdf', type: 'application/pdf', bytes: PDF },
    ]);
    expect(withFile.status).toBe(200);
    expect(listing(withFile).files_count).toBe(1);
    const before = { listings: await count('listings'), files: await count('files'), disk: uploads() };
    const impostor = await save(seller, {}, [
      {
        field: 'files',
        name: 'tickets.pdf',
        type: 'application/pdf',
        bytes: Buffer.from('MZ\x90\x00 not a pdf at all'),
      },
    ]);
    expect(impostor.status).toBe(415);
    expect(impostor.body.message).toBe('Invalid file type. Allowed types: pdf, jpg, jpeg, png');
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await save(seller, {}, [{ field: 'files', name: 'big.pdf', type: 'application/pdf', bytes: big }]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('File size exceeds 5MB limit');
    expect({ listings: await count('listings'), files: await count('files'), disk: uploads() }).toEqual(before);

    // more files later, on the seller's own listing only
    const id = listing(withFile).id;
    const more = await upload('/api/my-listing-upload', seller, { ticket_id: String(id) }, [
      { field: 'files', name: 'seat.png', type: 'image/png', bytes: PNG },
    ]);
    expect(more.status).toBe(200);
    expect(
      (more.body.data as unknown as { files: { name: string; kind: string }[] }).files.map((f) => f.kind).sort(),
    ).toEqual(['pdf', 'png']);
    const disk = uploads();
    const foreign = await upload('/api/my-listing-upload', rival, { ticket_id: String(id) }, [
      { field: 'files', name: 'x.png', type: 'image/png', bytes: PNG },
    ]);
    expect(foreign.status).toBe(404);
    expect(uploads()).toBe(disk);
    expect((await logsOf(id)).map((l) => l.action)).toEqual(['files_uploaded', 'files_uploaded', 'created']);
  });

  it('edits a listing, logging each field from its old value to its new one; another seller’s id is 404', async () => {
    const l = listing(await save());
    const edit = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, {
      price: 15000,
      row: '14',
      notes: 'Aisle',
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ price: 15000, row: '14', notes: 'Aisle' });
    const logs = await logsOf(l.id);
    expect(
      logs.filter((x) => x.action !== 'created').map((x) => [x.action, x.field, x.old_value, x.new_value]),
    ).toEqual(
      expect.arrayContaining([
        ['price_changed', 'price', '12500', '15000'],
        ['updated', 'row', '12', '14'],
        ['updated', 'notes', null, 'Aisle'],
      ]),
    );
    // the same again changes and logs nothing
    await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { price: 15000 });
    expect((await logsOf(l.id)).length).toBe(logs.length);
    // the rival: 404, nothing changed, no log row
    const logRows = await count('listing_logs');
    const foreign = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, rival, { price: 500 });
    expect(foreign.status).toBe(404);
    expect((await row(l.id)).price).toBe(15000);
    expect(await count('listing_logs')).toBe(logRows);
    expect((await call(s, 'GET', `/my-listings/ticket-logs?ticket_id=${l.id}`, rival)).status).toBe(404);
    expect((await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, rival)).status).toBe(404);
    // nothing to change, and bad values
    expect((await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, {})).status).toBe(422);
    for (const bad of [{ price: 0 }, { price: 2 ** 53 }, { price: '100' }, { quantity: 1.5 }, { match_id: 1 }]) {
      expect(
        (await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, bad)).status,
        JSON.stringify(bad),
      ).toBe(422);
    }
  });

  it('refuses a quantity below the tickets sold and held, and moves the tickets on sale with the quantity', async () => {
    const l = listing(await save(seller, { quantity: '6' }));
    // the rival buys 2 (a confirmed purchase through the flow)
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${l.match_id}&sell_ticket_id=${l.id}&quantity=2&payment_method=1`,
      rival,
    );
    expect(cart.status).toBe(200);
    const addresses = await call(s, 'GET', '/settings/address-book', rival);
    const booking = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${l.id}`, rival, {
      cart_id: (cart.body.data as { cart_id: number }).cart_id,
      lang: 'en',
      client_country: 'IN',
      payment_method: 1,
      address_id: (addresses.body.data as unknown as { address_id: number }[])[0]?.address_id,
    });
    const confirm = await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
      booking_id: (booking.body.data as { booking_id: number }).booking_id,
      payment_method: 1,
    });
    expect(confirm.status).toBe(200);
    const now = (await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, seller)).body
      .data as unknown as {
      ticket: Listing;
      sales: { quantity: number }[];
    };
    expect(now.ticket).toMatchObject({ quantity: 6, sold: 2, available: 4 });
    expect(now.sales.map((x) => x.quantity)).toEqual([2]);
    const low = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { quantity: 1 });
    expect(low.status).toBe(422);
    expect(low.body.errors?.[0]).toEqual({
      path: '/body/quantity',
      message: "must be at least 2 (2 sold, 0 in buyers' carts)",
    });
    const up = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { quantity: 10 });
    expect(up.body.data).toMatchObject({ quantity: 10, sold: 2, available: 8 });
    const down = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { quantity: 2 });
    expect(down.body.data).toMatchObject({ quantity: 2, sold: 2, available: 0 });
    // sold tickets: the listing cannot be deleted, and its sale stays in the history
    const del = await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, seller);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('This listing cannot be deleted: 2 tickets of it were sold. Unpublish it instead.');
  });

  it('deletes a listing with nothing sold (its log keeps the deletion); the rival gets 404', async () => {
    const l = listing(await save());
    expect((await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, rival)).status).toBe(404);
    expect((await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, seller)).status).toBe(200);
    expect((await row(l.id)).available).toBe(0);
    expect((await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, seller)).status).toBe(404);
    expect((await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, seller)).status).toBe(404);
    expect((await logsOf(l.id)).map((x) => x.action)).toEqual(['deleted', 'created']);
    const page = await call(s, 'GET', `/purchase/lmt-trade/events/${l.match_id}?per_page=100`, rival);
    expect((page.body.data as unknown as { tickets: { sNo: number }[] }).tickets.map((t) => t.sNo)).not.toContain(l.id);
  });

  it('changes the prices of a selection at once, or none when one id is another seller’s', async () => {
    const a = listing(await save(seller, { price: '10000' }));
    const b = listing(await save(seller, { price: '20000', currency: 'EUR' }));
    const c = listing(await save(seller, { price: '30000' }));
    // one price is an amount of one currency: not for a GBP and a EUR listing at once
    const across = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, b.id],
      price: 11111,
    });
    expect(across.status).toBe(422);
    expect(across.body.message).toBe(
      'These listings are priced in EUR, GBP: a new price is an amount in one currency. Choose listings of one currency to price them together.',
    );
    expect([(await row(a.id)).price, (await row(b.id)).price]).toEqual([10000, 20000]);
    const set = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, c.id],
      price: 11111,
    });
    expect(set.status).toBe(200);
    expect((await row(a.id)).price).toBe(11111);
    expect((await row(c.id)).price).toBe(11111);
    await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [b.id], price: 11111 });
    const pct = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, b.id],
      change_percent: -10,
    });
    expect((pct.body.data as unknown as { tickets: { price: number }[] }).tickets.map((t) => t.price)).toEqual([
      10000, 10000,
    ]);
    const theirs = await s.db
      .selectFrom('listings')
      .select('id')
      .where('seller_id', '=', rivalId)
      .executeTakeFirstOrThrow();
    const mixed = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, theirs.id],
      price: 500,
    });
    expect(mixed.status).toBe(404);
    expect((await row(a.id)).price).toBe(10000);
    for (const bad of [
      { ticket_ids: [a.id], price: 500, change_percent: 5 },
      { ticket_ids: [a.id] },
      { ticket_ids: [a.id, a.id], price: 500 },
      { ticket_ids: [], price: 500 },
      { ticket_ids: [a.id], change_percent: 1.234 },
      { ticket_ids: [a.id], change_percent: -95 },
      { ticket_ids: Array.from({ length: 1001 }, (_, i) => i + 1), price: 500 },
    ]) {
      expect(
        (await call(s, 'POST', '/my-listings/update-ticket-price', seller, bad)).status,
        JSON.stringify(bad).slice(0, 80),
      ).toBe(422);
    }
    const logs = await logsOf(a.id);
    expect(logs.filter((x) => x.action === 'price_changed').map((x) => [x.old_value, x.new_value])).toEqual([
      ['11111', '10000'],
      ['10000', '11111'],
    ]);
  });

  it('unpublishes (off sale, even for tickets a hold gives back later) and publishes again', async () => {
    const l = listing(await save(seller, { quantity: '5' }));
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${l.match_id}&sell_ticket_id=${l.id}&quantity=2&payment_method=1`,
      rival,
    );
    expect(cart.status).toBe(200);
    const off = await call(s, 'POST', '/my-listings/update-ticket-status', seller, {
      ticket_ids: [l.id],
      status: 'unpublished',
    });
    expect(off.body.data).toMatchObject({
      updated: 1,
      tickets: [{ ticket_id: l.id, status: 'unpublished', available: 0 }],
    });
    expect((await call(s, 'GET', `/purchase/lmt-trade/tickets/${l.id}`, rival)).status).toBe(404);
    // the hold ends: its 2 tickets come back, off sale
    s.clock.advance(HOLD_MS + 1000);
    await releaseDueHolds(s.db, s.clock.now(), { listingId: l.id });
    expect(await row(l.id)).toMatchObject({ available: 0, withheld: 5 });
    const on = await call(s, 'POST', '/my-listings/update-ticket-status', seller, {
      ticket_ids: [l.id],
      status: 'published',
    });
    expect(on.body.data).toMatchObject({ tickets: [{ available: 5 }] });
    expect((await logsOf(l.id)).map((x) => x.action)).toEqual(['published', 'unpublished', 'created']);
    expect(
      (await call(s, 'POST', '/my-listings/update-ticket-status', rival, { ticket_ids: [l.id], status: 'unpublished' }))
        .status,
    ).toBe(404);
    expect((await row(l.id)).status).toBe('published');
  });

  it('answers market insights from the other sellers’ listings of the match and category, with the payout', async () => {
    const match = upcoming[1]?.id as number;
    const category = 'Shortside Upper Tier';
    for (const [who, price] of [
      [rival, '10000'],
      [rival, '30000'],
      [rival, '20000'],
    ] as const) {
      expect((await save(who, { match_id: String(match), category, price })).status).toBe(200);
    }
    const others = await s.db
      .selectFrom('listings')
      .select(['price', 'currency', 'available'])
      .where('event_id', '=', match)
      .where('category', '=', category)
      .where('seller_id', '<>', sellerId)
      .where('available', '>', 0)
      .where('currency', '=', 'GBP')
      .execute();
    const gbp = others.map((o) => o.price).sort((x, y) => x - y);
    const r = await call(
      s,
      'GET',
      `/my-listings/market-insights?match_id=${match}&category=${encodeURIComponent(category)}&price=15000&quantity=2&currency=GBP`,
      seller,
    );
    expect(r.status).toBe(200);
    const d = r.body.data as unknown as Record<string, unknown> & {
      your_price: { rank: number };
      payout: Record<string, unknown>;
    };
    expect(d.lowest_price).toBe(gbp[0]);
    expect(d.highest_price).toBe(gbp.at(-1));
    expect(d.your_price.rank).toBe(gbp.filter((p) => p < 15000).length + 1);
    expect(d.payout).toEqual({
      quantity: 2,
      seller_receives: 30000,
      buyer_pays: priceBreakdown({ currency: 'GBP', unitPrice: 15000, quantity: 2, ticketTypeId: 1, method: 1 }),
    });
    expect((await call(s, 'GET', '/my-listings/market-insights', seller)).status).toBe(422);
    expect(
      (await call(s, 'GET', `/my-listings/market-insights?match_id=2147483647&category=Away%20Section`, seller)).status,
    ).toBe(404);
  });

  it('saves several listings all or nothing (JSON), naming the wrong row', async () => {
    const good = {
      match_id: upcoming[2]?.id,
      category: 'Away Section',
      ticket_block: 'B',
      row: '1',
      ticket_type_id: 2,
      quantity: 2,
      split_type: 'pairs',
      price: 5000,
      currency: 'GBP',
    };
    const before = await count('listings');
    const bad = await call(s, 'POST', '/api/bulk-listing', seller, { listings: [good, { ...good, quantity: 3 }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ path: '/body/listings/1/split_type', message: 'Pairs need an even quantity.' }]);
    expect(await count('listings')).toBe(before);
    const ok = await call(s, 'POST', '/api/bulk-listing', seller, { listings: [good, good] });
    expect(ok.status).toBe(200);
    expect(await count('listings')).toBe(before + 2);
  });

  it('keeps event requests per seller, with their status; refuses a date in the past', async () => {
    const past = await call(s, 'POST', '/match/request-event', seller, {
      match_name: 'Old match',
      match_date: '2001-01-01',
      stadium_name: 'Somewhere',
    });
    expect(past.status).toBe(422);
    const made = await call(s, 'POST', '/match/request-event', seller, {
      match_name: 'Hearts vs Hibernian',
      match_date: upcoming[0]?.event_date,
      stadium_name: 'Tynecastle Park',
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'pending', match_id: null });
    const mine = await call(s, 'GET', '/match/requested-events', seller);
    expect((mine.body.data as unknown as { requests: { match_name: string }[] }).requests[0]?.match_name).toBe(
      'Hearts vs Hibernian',
    );
    const theirs = await call(s, 'GET', '/match/requested-events', rival);
    expect((theirs.body.data as unknown as { requests: unknown[] }).requests).toEqual([]);
  });

  it('saves field settings per user and page; a repeated key is refused', async () => {
    const empty = await call(s, 'GET', '/ui-settings/field-settings?page=my-listings', member);
    expect(empty.body.data).toEqual({ page: 'my-listings', columns: [], updated_at: null });
    const columns = [
      { key: 'price', visible: true },
      { key: 'row', visible: false },
    ];
    const saved = await call(s, 'POST', '/ui-settings/save-field-settings', seller, { page: 'my-listings', columns });
    expect(saved.status).toBe(200);
    expect((await call(s, 'GET', '/ui-settings/field-settings?page=my-listings', seller)).body.data).toMatchObject({
      columns,
    });
    expect((await call(s, 'GET', '/ui-settings/field-settings?page=my-listings', rival)).body.data).toMatchObject({
      columns: [],
    });
    const dup = await call(s, 'POST', '/ui-settings/save-field-settings', seller, {
      page: 'my-listings',
      columns: [...columns, columns[0]],
    });
    expect(dup.status).toBe(422);
  });

  it('answers the stadium plan of a match and the stadiums', async () => {
    const r = await call(s, 'GET', `/my-listings/get-block-details?match_id=${upcoming[0]?.id}`, seller);
    expect((r.body.data as unknown as { categories: { name: string }[] }).categories.map((c) => c.name)).toContain(
      'VIP Hospitality',
    );
    expect((await call(s, 'GET', '/my-listings/get-block-details?match_id=2147483647', seller)).status).toBe(404);
    const st = await call(s, 'GET', '/settings/stadium?q=anfield', seller);
    expect((st.body.data as unknown as { stadiums: { name: string }[] }).stadiums.map((x) => x.name)).toEqual([
      'Anfield',
    ]);
    const ev = await call(s, 'GET', '/my-listings/events-search?only_mine=true&per_page=50', seller);
    for (const e of (ev.body.data as unknown as { events: { my_listings: number }[] }).events)
      expect(e.my_listings).toBeGreaterThan(0);
  });
});
