import type { Db } from '../../db/database';

/** One row of an export file: its values by column, in the column order of the section. */
export type Row = Record<string, string | number | null>;

/**
 * One file pair of the export (`<name>.json`, `<name>.csv`): its columns, and its rows read a page at a time by
 * keyset (`after` the last `id` of the page before), so that no section is ever held whole in memory.
 */
export interface Section {
  name: string;
  columns: readonly string[];
  count(db: Db, sellerId: number): Promise<number>;
  page(db: Db, sellerId: number, after: number, limit: number): Promise<Row[]>;
}

const counted = (n: { n: number | string | bigint } | undefined) => Number(n?.n ?? 0);

const profile: Section = {
  name: 'profile',
  columns: [
    'id',
    'email',
    'first_name',
    'last_name',
    'phone_dialing_code',
    'phone_number',
    'country_id',
    'city_id',
    'currency',
    'language',
    'kyc_status',
    'created_at',
  ],
  count: async () => 1,
  page: async (db, sellerId, after) =>
    db
      .selectFrom('users')
      .select([
        'id',
        'email',
        'first_name',
        'last_name',
        'phone_dialing_code',
        'phone_number',
        'country_id',
        'city_id',
        'currency',
        'language',
        'kyc_status',
        'created_at',
      ])
      .where('id', '=', sellerId)
      .where('id', '>', after)
      .execute(),
};

const addresses: Section = {
  name: 'addresses',
  columns: [
    'id',
    'first_name',
    'last_name',
    'email',
    'country_code',
    'mobile_number',
    'country_id',
    'city_id',
    'address',
    'zip_code',
    'address_type',
    'primary_address',
    'created_at',
  ],
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('addresses')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('owner_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: (db, sellerId, after, limit) =>
    db
      .selectFrom('addresses')
      .select([
        'id',
        'first_name',
        'last_name',
        'email',
        'country_code',
        'mobile_number',
        'country_id',
        'city_id',
        'address',
        'zip_code',
        'address_type',
        'primary_address',
        'created_at',
      ])
      .where('owner_id', '=', sellerId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute(),
};

const LISTING_COLUMNS = [
  'id',
  'event_id',
  'category',
  'ticket_block',
  'row',
  'seats',
  'quantity',
  'available',
  'price',
  'face_value',
  'currency',
  'split_type',
  'restrictions',
  'status',
  'in_hand_date',
  'notes',
  'created_at',
  'updated_at',
] as const;

const listings: Section = {
  name: 'listings',
  columns: LISTING_COLUMNS,
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: (db, sellerId, after, limit) =>
    db
      .selectFrom('listings')
      .select(LISTING_COLUMNS)
      .where('seller_id', '=', sellerId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute(),
};

const ORDER_COLUMNS = [
  'id',
  'booking_no',
  'listing_id',
  'event_id',
  'event_date',
  'event_time',
  'category',
  'ticket_block',
  'row',
  'seats',
  'quantity',
  'delivered',
  'amount',
  'currency',
  'status',
  'accept_by',
  'deliver_by',
  'in_hand_date',
  'notes',
  'created_at',
  'updated_at',
] as const;

/** The orders it sold (the buyers' guests' names are theirs, not the seller's, and stay out). */
const orders: Section = {
  name: 'orders',
  columns: ORDER_COLUMNS,
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: (db, sellerId, after, limit) =>
    db
      .selectFrom('orders')
      .select(ORDER_COLUMNS)
      .where('seller_id', '=', sellerId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute(),
};

const BOOKING_COLUMNS = [
  'id',
  'booking_no',
  'listing_id',
  'event_id',
  'quantity',
  'unit_price',
  'currency',
  'payment_method',
  'status',
  'status_reason',
  'billing',
  'attendees',
  'confirmed_at',
  'created_at',
] as const;

/** What it bought, as buyer. */
const bookings: Section = {
  name: 'bookings',
  columns: BOOKING_COLUMNS,
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('buyer_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: (db, sellerId, after, limit) =>
    db
      .selectFrom('bookings')
      .select(BOOKING_COLUMNS)
      .where('buyer_id', '=', sellerId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute(),
};

/** Every line of the accounts it owns in the ledger (its wallet, its earnings, its payouts on their way). */
const ledgerLines: Section = {
  name: 'ledger_lines',
  columns: [
    'id',
    'created_at',
    'account',
    'currency',
    'amount',
    'balance_after',
    'entry_kind',
    'reference',
    'description',
  ],
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('ledger_lines')
        .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('ledger_accounts.owner_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: (db, sellerId, after, limit) =>
    db
      .selectFrom('ledger_lines')
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
      .innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_lines.entry_id')
      .select([
        'ledger_lines.id',
        'ledger_lines.created_at',
        'ledger_accounts.kind as account',
        'ledger_lines.currency',
        'ledger_lines.amount',
        'ledger_lines.balance_after',
        'ledger_entries.kind as entry_kind',
        'ledger_entries.reference',
        'ledger_entries.description',
      ])
      .where('ledger_accounts.owner_id', '=', sellerId)
      .where('ledger_lines.id', '>', after)
      .orderBy('ledger_lines.id')
      .limit(limit)
      .execute(),
};

const PAYOUT_COLUMNS = [
  'id',
  'bank_account_id',
  'currency',
  'amount',
  'fee',
  'net',
  'status',
  'failure_reason',
  'decided_at',
  'created_at',
] as const;

const payouts: Section = {
  name: 'payouts',
  columns: PAYOUT_COLUMNS,
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('payouts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: (db, sellerId, after, limit) =>
    db
      .selectFrom('payouts')
      .select(PAYOUT_COLUMNS)
      .where('seller_id', '=', sellerId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute(),
};

/** The list of its KYC documents (what, when, how big), not the files themselves. */
const kycDocuments: Section = {
  name: 'kyc_documents',
  columns: ['id', 'kind', 'name', 'mime', 'size', 'uploaded_at'],
  count: async (db, sellerId) =>
    counted(
      await db
        .selectFrom('kyc_documents')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', sellerId)
        .executeTakeFirst(),
    ),
  page: async (db, sellerId, after) => {
    // a handful of rows at most (one per kind): read at once, numbered for the keyset
    if (after > 0) return [];
    const rows = await db
      .selectFrom('kyc_documents')
      .innerJoin('files', 'files.id', 'kyc_documents.file_id')
      .select(['kyc_documents.kind', 'files.original_name as name', 'files.mime', 'files.size', 'uploaded_at'])
      .where('kyc_documents.seller_id', '=', sellerId)
      .orderBy('kyc_documents.kind')
      .execute();
    return rows.map((r, i) => ({ id: i + 1, ...r }));
  },
};

export const SECTIONS: readonly Section[] = [
  profile,
  addresses,
  listings,
  orders,
  bookings,
  ledgerLines,
  payouts,
  kycDocuments,
];
