import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { type Answer, book, call, newKey, openListing, type Server, userId } from './trade-testing';

// The address book's update and delete (updateAddress, deleteAddress): the caller's own addresses only (another
// owner's is 404), addAddress's rules for what changes, one primary address while the book has any.

type Address = {
  address_id: number;
  first_name: string;
  address: string;
  zip_code: string;
  country_id: number;
  city_id: number | null;
  primary_address: 0 | 1;
};
const addressesOf = (a: Answer) => a.body.data as unknown as Address[];

describe('address book: update and delete', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let sellerId: number;

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
    sellerId = await userId(s, 'seller@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const book_ = async (token: string) => addressesOf(await call(s, 'GET', '/settings/address-book', token));
  const primaries = async (token: string) => (await book_(token)).filter((a) => a.primary_address === 1);
  const place = async () => {
    const city = await s.db.selectFrom('cities').select(['id', 'country_id']).orderBy('id').executeTakeFirstOrThrow();
    const elsewhere = await s.db
      .selectFrom('cities')
      .select(['id', 'country_id'])
      .where('country_id', '<>', city.country_id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { city, elsewhere };
  };
  const add = async (token: string, extra: Record<string, unknown> = {}) => {
    const { city } = await place();
    const made = await call(s, 'POST', '/settings/address-book/add', token, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      country_id: city.country_id,
      city_id: city.id,
      address: '12 Analytical Row',
      zip_code: 'AE1 1AA',
      ...extra,
    });
    expect(made.status).toBe(200);
    return made.body.data as unknown as Address;
  };
  const update = (token: string, body: Record<string, unknown>, key?: string) =>
    call(s, 'POST', '/settings/address-book/update', token, body, key);
  const remove = (token: string, id: number, key?: string) =>
    call(s, 'POST', `/settings/address-book/delete/${id}`, token, undefined, key);

  it('updates only the fields given, trimmed, with the billing form rules; another owner cannot', async () => {
    const mine = await add(seller);
    const changed = await update(seller, { id: mine.address_id, address: '  1 New Street  ', zip_code: 'N1 9GU' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      address_id: mine.address_id,
      address: '1 New Street',
      zip_code: 'N1 9GU',
      first_name: 'Ada',
      city_id: mine.city_id,
    });
    // another buyer's address, and an id nobody has: not found, and nothing changed
    expect((await update(rival, { id: mine.address_id, address: 'Stolen' })).status).toBe(404);
    expect((await update(seller, { id: 2_000_000_000, address: 'Nowhere' })).status).toBe(404);
    expect((await book_(seller)).find((a) => a.address_id === mine.address_id)?.address).toBe('1 New Street');
    // blank, an unknown country, a city of another country
    const { elsewhere } = await place();
    const blank = await update(seller, { id: mine.address_id, first_name: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual([{ path: '/body/first_name', message: 'must contain a letter or a digit' }]);
    expect((await update(seller, { id: mine.address_id, country_id: 999_999 })).body.errors?.[0]?.path).toBe(
      '/body/country_id',
    );
    expect((await update(seller, { id: mine.address_id, city_id: elsewhere.id })).body.errors?.[0]?.path).toBe(
      '/body/city_id',
    );
    // a new country keeps no city of the old one: it asks for the city, or takes null
    const moved = await update(seller, { id: mine.address_id, country_id: elsewhere.country_id });
    expect(moved.status).toBe(422);
    expect(moved.body.errors?.[0]?.path).toBe('/body/city_id');
    const movedWithCity = await update(seller, {
      id: mine.address_id,
      country_id: elsewhere.country_id,
      city_id: null,
    });
    expect(movedWithCity.body.data).toMatchObject({ country_id: elsewhere.country_id, city_id: null });
    // unknown fields are refused by the contract
    expect((await update(seller, { id: mine.address_id, owner_id: 1 })).status).toBe(422);
  });

  it('a team member without lmt-trade reaches none of the four calls, nor the primary address', async () => {
    // member@demo.test has dashboard, sales and notification only
    const theirs = (await book_(seller))[0];
    expect(theirs).toBeDefined();
    const { city } = await place();
    const refused = [
      await call(s, 'GET', '/settings/address-book', member),
      await call(s, 'POST', '/settings/address-book/add', member, {
        first_name: 'Mal',
        last_name: 'Member',
        email: 'mal@example.com',
        country_id: city.country_id,
        address: '1 Own Street',
        zip_code: 'M1 1AA',
        primary_address: 1,
      }),
      await update(member, { id: theirs?.address_id, mobile_number: '7700 900123', primary_address: 1 }),
      await remove(member, theirs?.address_id ?? 0),
    ];
    expect(refused.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(refused.map((a) => a.body.message)).toEqual(Array(4).fill("You don't have permission to access this."));
    const after = await book_(seller);
    expect(after.find((a) => a.address_id === theirs?.address_id)).toEqual(theirs);
    expect(after.filter((a) => a.primary_address === 1).map((a) => a.address_id)).toEqual([theirs?.address_id]);
    expect(after.some((a) => a.address === '1 Own Street')).toBe(false);
  });

  it('a team member with lmt-trade keeps its seller address book (the purchase reads it)', async () => {
    const buyer = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'member@demo.test')
      .executeTakeFirstOrThrow();
    const grant = (on: 0 | 1) =>
      s.db
        .updateTable('user_permissions')
        .set({ is_can_access: on })
        .where('user_id', '=', buyer.id)
        .where('permission_name', '=', 'lmt-trade')
        .execute();
    await grant(1);
    try {
      const theirs = (await book_(seller))[0];
      const changed = await update(member, { id: theirs?.address_id, mobile_number: '7700 900123' });
      expect(changed.status).toBe(200);
      expect((await book_(seller)).find((a) => a.address_id === theirs?.address_id)).toMatchObject({
        mobile_number: '7700 900123',
      });
    } finally {
      await grant(0);
    }
  });

  it('makes another address primary (the old one loses it); the primary cannot simply be unset', async () => {
    const [primary] = await primaries(seller);
    expect(primary).toBeDefined();
    const other = await add(seller);
    expect(other.primary_address).toBe(0);
    const unset = await update(seller, { id: primary?.address_id, primary_address: 0 });
    expect(unset.status).toBe(409);
    expect(unset.body.message).toBe('This is your primary address: make another address primary instead.');
    const made = await update(seller, { id: other.address_id, primary_address: 1 });
    expect(made.body.data).toMatchObject({ primary_address: 1 });
    expect((await primaries(seller)).map((a) => a.address_id)).toEqual([other.address_id]);
    // the address book lists the primary first
    expect((await book_(seller))[0]?.address_id).toBe(other.address_id);
  });

  it('a booking keeps the billing address it was made with', async () => {
    const listing = await openListing(s, sellerId);
    const booking = await book(s, seller, listing, 1);
    const [primary] = await primaries(seller);
    await update(seller, { id: primary?.address_id, address: '99 Changed Afterwards Road' });
    const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller);
    const billing = (read.body.data as unknown as { billing_address: { address: string } }).billing_address;
    expect(billing.address).not.toBe('99 Changed Afterwards Road');
  });

  it('deletes: not the primary while others exist; the last one may go, and the book is then empty', async () => {
    const before = await book_(rival);
    const [primary] = before.filter((a) => a.primary_address === 1);
    expect(primary).toBeDefined();
    const extra = await add(rival);
    // another owner's address is not found, and stays
    expect((await remove(seller, extra.address_id)).status).toBe(404);
    const refused = await remove(rival, primary?.address_id ?? 0);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Make another address primary before deleting this one.');
    // a replay under the same key answers the same and deletes once
    const key = newKey();
    const gone = await remove(rival, extra.address_id, key);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ deleted_id: extra.address_id, primary_address_id: primary?.address_id });
    expect((await remove(rival, extra.address_id, key)).body).toEqual(gone.body);
    expect((await remove(rival, extra.address_id)).status).toBe(404);
    for (const a of before.filter((x) => x.primary_address === 0)) {
      expect((await remove(rival, a.address_id)).status).toBe(200);
    }
    const last = await remove(rival, primary?.address_id ?? 0);
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual({ deleted_id: primary?.address_id, primary_address_id: null });
    expect(await book_(rival)).toEqual([]);
    // the next address is primary again, as the first one always is
    expect((await add(rival)).primary_address).toBe(1);
  });

  it('two calls making two addresses primary at once leave exactly one primary', async () => {
    const a = await add(seller);
    const b = await add(seller);
    const answers = await Promise.all([
      update(seller, { id: a.address_id, primary_address: 1 }),
      update(seller, { id: b.address_id, primary_address: 1 }),
      add(seller, { primary_address: 1 }).then(() => ({ status: 200 })),
    ]);
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200]);
    expect(await primaries(seller)).toHaveLength(1);
  });
});
