import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { table } from './expected-columns';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';
import { ADMIN_TABLES } from './schema-admin.expected';
import { ALERT_TABLES } from './schema-alerts.expected';
import { DISPUTE_TABLES } from './schema-disputes.expected';
import { SELLER_API_TABLES } from './schema-seller-api.expected';

/**
 * server/db/schema.ts (what the code believes) against the migrated database (what is there), on the test
 * engine. The expected columns below are checked by the compiler against schema.ts (./expected-columns): a column
 * added to an interface and not here, or listed as nullable when its type is not, does not compile; the test then
 * checks the database has exactly these tables, columns and nullabilities.
 */
const EXPECTED: { [T in keyof Database]: { columns: string[]; nullable: string[] } } = {
  currencies: table<Database['currencies']>()(['code', 'name', 'symbol', 'minor_unit'], []),
  countries: table<Database['countries']>()(['id', 'name', 'short_name', 'dialing_code', 'phone_code'], []),
  cities: table<Database['cities']>()(['id', 'country_id', 'name'], []),
  users: table<Database['users']>()(
    [
      'id',
      'email',
      'password_hash',
      'first_name',
      'last_name',
      'user_type',
      'kyc_status',
      'kyc_rejection_reason',
      'team_owner_id',
      'currency',
      'user_token',
      'created_at',
      'deleted_at',
      'email_verified',
      'phone_dialing_code',
      'phone_number',
      'country_id',
      'city_id',
      'language',
      'invited_at',
    ],
    [
      'kyc_rejection_reason',
      'team_owner_id',
      'deleted_at',
      'phone_dialing_code',
      'phone_number',
      'country_id',
      'city_id',
      'invited_at',
    ],
  ),
  permissions: table<Database['permissions']>()(['name', 'label', 'position'], []),
  user_permissions: table<Database['user_permissions']>()(['user_id', 'permission_name', 'is_can_access'], []),
  auth_tokens: table<Database['auth_tokens']>()(
    ['token_hash', 'user_id', 'created_at', 'expires_at', 'revoked_at', 'last_used_at', 'user_agent', 'client'],
    ['revoked_at', 'last_used_at', 'user_agent', 'client'],
  ),
  login_failures: table<Database['login_failures']>()(
    ['email', 'failed_logins', 'locked_until', 'last_failed_at', 'in_flight', 'in_flight_until'],
    ['locked_until', 'in_flight_until'],
  ),
  login_client_failures: table<Database['login_client_failures']>()(
    ['client', 'failed_logins', 'locked_until', 'last_failed_at', 'in_flight', 'in_flight_until'],
    ['locked_until', 'in_flight_until'],
  ),
  login_pair_failures: table<Database['login_pair_failures']>()(
    ['pair', 'failed_logins', 'locked_until', 'last_failed_at', 'in_flight', 'in_flight_until'],
    ['locked_until', 'in_flight_until'],
  ),
  login_device_failures: table<Database['login_device_failures']>()(
    ['device', 'failed_logins', 'locked_until', 'last_failed_at', 'in_flight', 'in_flight_until'],
    ['locked_until', 'in_flight_until'],
  ),
  login_devices: table<Database['login_devices']>()(
    ['device_hash', 'user_id', 'created_at', 'last_used_at', 'expires_at'],
    [],
  ),
  activity_log: table<Database['activity_log']>()(['id', 'user_id', 'type', 'description', 'created_at'], []),
  events: table<Database['events']>()(
    [
      'id',
      'name',
      'home_team',
      'away_team',
      'tournament',
      'event_date',
      'event_time',
      'stadium_name',
      'city_id',
      'country_id',
      'guest_fields',
      'transfer_window_hours',
    ],
    ['transfer_window_hours'],
  ),
  price_caps: table<Database['price_caps']>()(
    ['id', 'country_id', 'event_id', 'markup_bps', 'active', 'created_at', 'updated_at'],
    ['country_id', 'event_id'],
  ),
  listings: table<Database['listings']>()(
    [
      'id',
      'seller_id',
      'event_id',
      'category',
      'ticket_block',
      'row',
      'ticket_type_id',
      'quantity',
      'price',
      'currency',
      'created_at',
      'available',
      'split_type',
      'status',
      'withheld',
      'seats',
      'face_value',
      'restrictions',
      'notes',
      'updated_at',
      'in_hand_date',
    ],
    ['seats', 'face_value', 'notes', 'updated_at', 'in_hand_date'],
  ),
  orders: table<Database['orders']>()(
    [
      'id',
      'booking_no',
      'listing_id',
      'seller_id',
      'event_id',
      'quantity',
      'amount',
      'currency',
      'status',
      'created_at',
      'updated_at',
      'event_date',
      'event_time',
      'ticket_type_id',
      'delivered',
      'accept_by',
      'deliver_by',
      'notes',
      'notes_updated_at',
      'instruction_file_id',
      'guests',
      'category',
      'ticket_block',
      'row',
      'seats',
      'in_hand_date',
      'transfers_open_at',
      'transfer_accepted_at',
      'transfer_reminders',
      'transfer_reminded_at',
    ],
    [
      'accept_by',
      'deliver_by',
      'notes',
      'notes_updated_at',
      'instruction_file_id',
      'seats',
      'in_hand_date',
      'transfers_open_at',
      'transfer_accepted_at',
      'transfer_reminded_at',
    ],
  ),
  notifications: table<Database['notifications']>()(
    ['id', 'user_id', 'name', 'description', 'viewed', 'created_at', 'link'],
    ['link'],
  ),
  seed_fixtures: table<Database['seed_fixtures']>()(['name', 'applied_at'], []),
  idempotency_keys: table<Database['idempotency_keys']>()(
    ['user_id', 'operation_id', 'idem_key', 'request_hash', 'status', 'response', 'created_at', 'expires_at'],
    [],
  ),
  files: table<Database['files']>()(
    ['id', 'owner_id', 'operation_id', 'field', 'kind', 'mime', 'size', 'sha256', 'original_name', 'created_at'],
    [],
  ),
  seller_order_totals: table<Database['seller_order_totals']>()(
    ['seller_id', 'currency', 'status', 'shard', 'orders', 'tickets', 'amount'],
    [],
  ),
  seller_event_totals: table<Database['seller_event_totals']>()(
    ['seller_id', 'currency', 'event_id', 'orders', 'tickets', 'amount'],
    [],
  ),
  seller_match_orders: table<Database['seller_match_orders']>()(
    ['seller_id', 'status', 'event_id', 'currency', 'orders'],
    [],
  ),
  catalog_version: table<Database['catalog_version']>()(['id', 'version'], []),
  event_versions: table<Database['event_versions']>()(['event_id', 'shard', 'version'], []),
  event_stock: table<Database['event_stock']>()(
    ['event_id', 'currency', 'seller_id', 'tickets', 'listings', 'min_price'],
    ['min_price'],
  ),
  user_feed_counts: table<Database['user_feed_counts']>()(
    ['user_id', 'notifications', 'unread_notifications', 'activity'],
    [],
  ),
  user_feed_count_shards: table<Database['user_feed_count_shards']>()(
    ['user_id', 'shard', 'notifications', 'unread_notifications', 'activity'],
    [],
  ),
  ledger_accounts: table<Database['ledger_accounts']>()(
    ['id', 'account_key', 'kind', 'owner_id', 'currency', 'allow_negative', 'balance', 'created_at'],
    ['owner_id'],
  ),
  ledger_entries: table<Database['ledger_entries']>()(['id', 'kind', 'reference', 'description', 'created_at'], []),
  ledger_lines: table<Database['ledger_lines']>()(
    ['id', 'entry_id', 'account_id', 'currency', 'amount', 'balance_after', 'created_at'],
    [],
  ),
  deposits: table<Database['deposits']>()(
    [
      'id',
      'user_id',
      'submitted_by',
      'amount',
      'currency',
      'payment_transfer_by',
      'notes',
      'reference',
      'proof_file_id',
      'status',
      'rejection_reason',
      'decided_by',
      'decided_at',
      'ledger_entry_id',
      'created_at',
      'updated_at',
    ],
    ['notes', 'proof_file_id', 'rejection_reason', 'decided_by', 'decided_at', 'ledger_entry_id'],
  ),
  carts: table<Database['carts']>()(
    [
      'id',
      'buyer_id',
      'user_id',
      'listing_id',
      'event_id',
      'quantity',
      'currency',
      'unit_price',
      'payment_method',
      'status',
      'hold_state',
      'expires_at',
      'created_at',
      'updated_at',
      'category',
      'ticket_block',
      'row',
      'seats',
      'ticket_type_id',
      'seller_unit_price',
      'seller_currency',
      'in_hand_date',
      'face_value',
      'restrictions',
    ],
    ['seats', 'in_hand_date', 'face_value'],
  ),
  bookings: table<Database['bookings']>()(
    [
      'id',
      'booking_no',
      'cart_id',
      'buyer_id',
      'user_id',
      'seller_id',
      'listing_id',
      'event_id',
      'quantity',
      'currency',
      'unit_price',
      'payment_method',
      'status',
      'status_reason',
      'billing',
      'guest_fields',
      'attendees',
      'guests_complete',
      'order_id',
      'expires_at',
      'confirmed_at',
      'created_at',
      'updated_at',
    ],
    ['status_reason', 'order_id', 'confirmed_at'],
  ),
  payments: table<Database['payments']>()(
    [
      'id',
      'booking_id',
      'buyer_id',
      'payment_method',
      'gateway',
      'reference',
      'amount',
      'currency',
      'status',
      'failure_reason',
      'authentication',
      'refunded_amount',
      'created_at',
      'updated_at',
    ],
    ['failure_reason', 'authentication'],
  ),
  sandbox_intents: table<Database['sandbox_intents']>()(
    [
      'id',
      'client_secret',
      'owner_id',
      'idempotency_key',
      'amount',
      'currency',
      'metadata',
      'status',
      'last_error',
      'refunded',
      'created_at',
      'updated_at',
    ],
    ['last_error'],
  ),
  webhook_events: table<Database['webhook_events']>()(['event_id', 'gateway', 'type', 'outcome', 'received_at'], []),
  addresses: table<Database['addresses']>()(
    [
      'id',
      'owner_id',
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
    ['country_code', 'mobile_number', 'city_id'],
  ),
  stored_cards: table<Database['stored_cards']>()(
    [
      'id',
      'owner_id',
      'gateway',
      'brand',
      'variant',
      'last4',
      'exp_month',
      'exp_year',
      'holder_name',
      'recurring_reference',
      'created_at',
    ],
    [],
  ),
  recently_viewed: table<Database['recently_viewed']>()(['user_id', 'event_id', 'viewed_at'], []),
  trade_tracking: table<Database['trade_tracking']>()(
    ['id', 'user_id', 'step', 'event_id', 'booking_id', 'detail', 'created_at'],
    ['event_id', 'booking_id', 'detail'],
  ),
  listing_logs: table<Database['listing_logs']>()(
    [
      'id',
      'listing_id',
      'seller_id',
      'user_id',
      'action',
      'field',
      'old_value',
      'new_value',
      'change_id',
      'created_at',
    ],
    ['field', 'old_value', 'new_value', 'change_id'],
  ),
  listing_files: table<Database['listing_files']>()(['listing_id', 'file_id', 'created_at'], []),
  event_requests: table<Database['event_requests']>()(
    [
      'id',
      'seller_id',
      'user_id',
      'match_name',
      'home_team',
      'away_team',
      'tournament',
      'match_date',
      'match_time',
      'stadium_name',
      'city_name',
      'notes',
      'status',
      'status_reason',
      'event_id',
      'created_at',
      'updated_at',
    ],
    ['home_team', 'away_team', 'tournament', 'match_time', 'city_name', 'notes', 'status_reason', 'event_id'],
  ),
  field_settings: table<Database['field_settings']>()(['user_id', 'page', 'columns', 'updated_at'], []),
  listing_views: table<Database['listing_views']>()(
    ['id', 'seller_id', 'name', 'name_key', 'settings', 'created_at', 'updated_at'],
    [],
  ),
  order_logs: table<Database['order_logs']>()(
    ['id', 'order_id', 'action', 'from_status', 'to_status', 'reason', 'detail', 'actor', 'user_id', 'created_at'],
    ['from_status', 'reason', 'detail', 'user_id'],
  ),
  order_deliveries: table<Database['order_deliveries']>()(
    [
      'id',
      'order_id',
      'ticket_no',
      'type',
      'file_id',
      'page',
      'transfer_link',
      'courier',
      'tracking_number',
      'user_id',
      'delivered_at',
    ],
    ['file_id', 'page', 'transfer_link', 'courier', 'tracking_number', 'user_id'],
  ),
  additional_templates: table<Database['additional_templates']>()(
    ['id', 'seller_id', 'name', 'name_key', 'content', 'file_id', 'created_at', 'updated_at'],
    ['file_id'],
  ),
  listing_templates: table<Database['listing_templates']>()(['listing_id', 'template_id'], []),
  listing_counts: table<Database['listing_counts']>()(['seller_id', 'status', 'listings'], []),
  account_tokens: table<Database['account_tokens']>()(
    ['token_hash', 'user_id', 'purpose', 'created_at', 'expires_at', 'used_at'],
    ['used_at'],
  ),
  request_limits: table<Database['request_limits']>()(['key', 'window_start', 'hits'], []),
  mail_outbox: table<Database['mail_outbox']>()(['id', 'to_address', 'subject', 'body', 'created_at'], []),
  two_factor: table<Database['two_factor']>()(
    ['user_id', 'secret', 'created_at', 'enabled_at', 'last_step'],
    ['enabled_at', 'last_step'],
  ),
  two_factor_recovery_codes: table<Database['two_factor_recovery_codes']>()(
    ['id', 'user_id', 'code_hash', 'created_at', 'used_at'],
    ['used_at'],
  ),
  two_factor_challenges: table<Database['two_factor_challenges']>()(
    ['challenge_hash', 'user_id', 'created_at', 'expires_at', 'used_at', 'failures'],
    ['used_at'],
  ),
  kyc_documents: table<Database['kyc_documents']>()(['seller_id', 'kind', 'file_id', 'uploaded_at'], []),
  kyc_submissions: table<Database['kyc_submissions']>()(
    [
      'id',
      'seller_id',
      'account_type',
      'status',
      'photo_id_file',
      'address_proof_file',
      'business_file',
      'seller_contract_file',
      'rejection_reason',
      'decided_by',
      'decided_at',
      'submitted_at',
    ],
    ['business_file', 'rejection_reason', 'decided_by', 'decided_at'],
  ),
  esign_requests: table<Database['esign_requests']>()(
    [
      'id',
      'seller_id',
      'provider',
      'provider_request_id',
      'provider_action_id',
      'status',
      'signer_name',
      'signed_at',
      'created_at',
    ],
    ['provider_action_id', 'signer_name', 'signed_at'],
  ),
  esign_sandbox_documents: table<Database['esign_sandbox_documents']>()(
    ['id', 'signer_email', 'contract_text', 'signer_name', 'signed_at', 'created_at'],
    ['signer_name', 'signed_at'],
  ),
  bank_accounts: table<Database['bank_accounts']>()(
    ['id', 'seller_id', 'holder_name', 'iban', 'bic', 'is_default', 'created_by', 'created_at', 'deleted_at'],
    ['created_by', 'deleted_at'],
  ),
  payouts: table<Database['payouts']>()(
    [
      'id',
      'seller_id',
      'requested_by',
      'bank_account_id',
      'currency',
      'amount',
      'fee',
      'net',
      'status',
      'failure_reason',
      'decided_by',
      'decided_at',
      'created_at',
      'updated_at',
    ],
    ['requested_by', 'failure_reason', 'decided_by', 'decided_at'],
  ),
  payout_orders: table<Database['payout_orders']>()(['payout_id', 'order_id', 'amount'], []),
  referral_codes: table<Database['referral_codes']>()(['user_id', 'code', 'created_at'], []),
  referrals: table<Database['referrals']>()(['id', 'referrer_id', 'referred_id', 'created_at'], []),
  seller_contacts: table<Database['seller_contacts']>()(
    ['id', 'seller_id', 'position', 'name', 'role', 'email', 'phone', 'hours'],
    ['seller_id', 'phone', 'hours'],
  ),
  partner_settings: table<Database['partner_settings']>()(
    ['seller_id', 'api_access', 'webhook_url', 'notification_email', 'updated_by', 'updated_at'],
    ['webhook_url', 'notification_email', 'updated_by'],
  ),
  feature_requests: table<Database['feature_requests']>()(
    ['id', 'seller_id', 'user_id', 'title', 'description', 'category', 'created_at'],
    [],
  ),
  report_schedules: table<Database['report_schedules']>()(
    ['id', 'seller_id', 'user_id', 'frequency', 'currency', 'last_sent_period', 'created_at', 'updated_at'],
    [],
  ),
  mail_outbox_attachments: table<Database['mail_outbox_attachments']>()(
    ['id', 'mail_id', 'filename', 'mime', 'content_base64'],
    [],
  ),
  ops_jobs: table<Database['ops_jobs']>()(
    ['name', 'claimed_at', 'runs', 'last_ok_at', 'last_error', 'detail'],
    ['last_ok_at', 'last_error', 'detail'],
  ),
  ...ADMIN_TABLES,
  ...SELLER_API_TABLES,
  ...DISPUTE_TABLES,
  ...ALERT_TABLES,
};

describe('server/db/schema.ts against the migrated database', () => {
  let d: FreshDatabase;
  let actual: Map<string, { columns: string[]; nullable: string[] }>;

  beforeAll(async () => {
    d = await freshDatabase();
    await migrateToLatest(d.db);
    const tables = await d.db.introspection.getTables();
    // SQLite reports a one-column primary key as nullable (its rowid alias never is null, and every key we
    // insert is given), so on SQLite key columns are left out of the nullability comparison
    const keyColumns = async (name: string) =>
      d.engine === 'sqlite'
        ? (
            await sql<{ name: string }>`SELECT name FROM pragma_table_info(${name}) WHERE pk > 0`.execute(d.db)
          ).rows.map((r) => r.name)
        : [];
    actual = new Map();
    for (const t of tables) {
      const keys = await keyColumns(t.name);
      actual.set(t.name, {
        columns: t.columns.map((c) => c.name).sort(),
        nullable: t.columns
          .filter((c) => c.isNullable && !keys.includes(c.name))
          .map((c) => c.name)
          .sort(),
      });
    }
  });
  afterAll(async () => {
    await d?.close();
  });

  it('has exactly the tables schema.ts names', () => {
    expect([...actual.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: the same columns, and the same ones nullable`, () => {
      expect(actual.get(name)).toEqual(expected);
    });
  }
});
