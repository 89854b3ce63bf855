import { describe, expect, it } from 'vitest';
import {
  count,
  type Listing,
  listing,
  logsOf,
  member,
  openListingsServer,
  PDF,
  PNG,
  rival,
  row,
  s,
  save,
  seller,
  sellerId,
  upload,
  uploads,
} from './listings-testing';
import { type Answer, call } from './trade-testing';

describe('inventory (server): the list, new listings and their files', () => {
  openListingsServer();

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
});
