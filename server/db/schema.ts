import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { components } from '../../openapi/schema';
import type {
  AdminAuditLogTable,
  BankStatementLineTable,
  BankStatementTable,
  ErasureRequestTable,
} from './schema-admin';
import type {
  AdditionalTemplateTable,
  EventRequestTable,
  FieldSettingTable,
  ListingCountTable,
  ListingFileTable,
  ListingLogTable,
  ListingTemplateTable,
  ListingViewTable,
} from './schema-listings';
import type {
  LoginClientFailureTable,
  LoginDeviceFailureTable,
  LoginDeviceTable,
  LoginFailureTable,
  LoginPairFailureTable,
} from './schema-login';
import type { BookingTable, CartTable, PaymentTable, SandboxIntentTable } from './schema-purchase';

export type { BookingTable, CartTable, PaymentTable, SandboxIntentTable };

import type {
  OrderDeliveryTable,
  OrderLogTable,
  OrderTable,
  SellerEventTotalTable,
  SellerMatchOrdersTable,
  SellerOrderTotalTable,
} from './schema-sales';

export { ORDER_STATUSES, type OrderStatus } from './schema-sales';

/**
 * The database's tables as Kysely sees them. Timestamps are ISO-8601 UTC strings (they sort and compare as
 * text on SQLite and Postgres alike); flags are 0/1 integers; money is an integer of minor units.
 */
export interface Database {
  currencies: CurrencyTable;
  countries: CountryTable;
  cities: CityTable;
  users: UserTable;
  permissions: PermissionTable;
  user_permissions: UserPermissionTable;
  auth_tokens: AuthTokenTable;
  login_failures: LoginFailureTable;
  login_client_failures: LoginClientFailureTable;
  login_pair_failures: LoginPairFailureTable;
  login_device_failures: LoginDeviceFailureTable;
  login_devices: LoginDeviceTable;
  activity_log: ActivityTable;
  events: EventTable;
  listings: ListingTable;
  price_caps: PriceCapTable;
  orders: OrderTable;
  notifications: NotificationTable;
  seed_fixtures: SeedFixtureTable;
  idempotency_keys: IdempotencyKeyTable;
  files: FileTable;
  seller_order_totals: SellerOrderTotalTable;
  seller_event_totals: SellerEventTotalTable;
  seller_match_orders: SellerMatchOrdersTable;
  catalog_version: CatalogVersionTable;
  event_versions: EventVersionTable;
  event_stock: EventStockTable;
  user_feed_counts: UserFeedCountTable;
  user_feed_count_shards: UserFeedCountTable & { shard: number };
  ledger_accounts: LedgerAccountTable;
  ledger_entries: LedgerEntryTable;
  ledger_lines: LedgerLineTable;
  deposits: DepositTable;
  bank_statements: BankStatementTable;
  bank_statement_lines: BankStatementLineTable;
  carts: CartTable;
  bookings: BookingTable;
  payments: PaymentTable;
  sandbox_intents: SandboxIntentTable;
  webhook_events: WebhookEventTable;
  addresses: AddressTable;
  stored_cards: StoredCardTable;
  recently_viewed: RecentlyViewedTable;
  trade_tracking: TradeTrackingTable;
  listing_logs: ListingLogTable;
  listing_files: ListingFileTable;
  event_requests: EventRequestTable;
  field_settings: FieldSettingTable;
  listing_views: ListingViewTable;
  order_logs: OrderLogTable;
  order_deliveries: OrderDeliveryTable;
  additional_templates: AdditionalTemplateTable;
  listing_templates: ListingTemplateTable;
  listing_counts: ListingCountTable;
  account_tokens: AccountTokenTable;
  request_limits: RequestLimitTable;
  mail_outbox: MailOutboxTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodeTable;
  two_factor_challenges: TwoFactorChallengeTable;
  kyc_documents: KycDocumentTable;
  kyc_submissions: KycSubmissionTable;
  esign_requests: ESignRequestTable;
  esign_sandbox_documents: ESignSandboxDocumentTable;
  bank_accounts: BankAccountTable;
  payouts: PayoutTable;
  payout_orders: PayoutOrderTable;
  referral_codes: ReferralCodeTable;
  referrals: ReferralTable;
  seller_contacts: SellerContactTable;
  partner_settings: PartnerSettingTable;
  feature_requests: FeatureRequestTable;
  report_schedules: ReportScheduleTable;
  mail_outbox_attachments: MailOutboxAttachmentTable;
  ops_jobs: OpsJobTable;
  erasure_requests: ErasureRequestTable;
  admin_audit_log: AdminAuditLogTable;
}

export interface CurrencyTable {
  code: string;
  name: string;
  symbol: string;
  minor_unit: number;
}

export interface CountryTable {
  id: Generated<number>;
  name: string;
  short_name: string;
  dialing_code: string;
  phone_code: number;
}

export interface CityTable {
  id: Generated<number>;
  country_id: number;
  name: string;
}

export type UserType = components['schemas']['UserType'];

export interface UserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  user_type: UserType;
  kyc_status: number;
  kyc_rejection_reason: string | null;
  team_owner_id: number | null;
  currency: string;
  user_token: string;
  created_at: string;
  deleted_at: string | null;
  /** 1 once the address is verified (the default: only sign-up writes 0). */
  email_verified: ColumnType<number, number | undefined, number>;
  /** My Account's details (migration 0017): the phone as its dialing code and number, country, city, language. */
  phone_dialing_code: ColumnType<string | null, string | null | undefined, string | null>;
  phone_number: ColumnType<string | null, string | null | undefined, string | null>;
  country_id: ColumnType<number | null, number | null | undefined, number | null>;
  city_id: ColumnType<number | null, number | null | undefined, number | null>;
  language: ColumnType<string, string | undefined, string>;
  /** When a team member was invited by email; null for everyone else. */
  invited_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PermissionTable {
  name: string;
  label: string;
  position: number;
}

export interface UserPermissionTable {
  user_id: number;
  permission_name: string;
  is_can_access: number;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** When a call last used the session (written at most once a minute), null until then. */
  last_used_at: string | null;
  /** The User-Agent of the login (cut to 300 characters), null when none was sent. */
  user_agent: string | null;
  /** The client address of the login (server/auth/client.ts: an IPv6 address by its /64). */
  client: string | null;
}

export interface ActivityTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  description: string;
  created_at: string;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;

export interface EventTable {
  id: Generated<number>;
  /** 'Arsenal vs Chelsea' */
  name: string;
  home_team: string;
  away_team: string;
  tournament: string;
  /** 'YYYY-MM-DD' */
  event_date: string;
  /** 'HH:MM', local time of the stadium */
  event_time: string;
  stadium_name: string;
  city_id: number;
  country_id: number;
  /** the guest details the event requires of each ticket's guest: a comma list of field names, '' for none */
  guest_fields: ColumnType<string, string | undefined, string>;
  /** The club releases mobile transfers only this many hours before kick-off; null: no window (migration 0049). */
  transfer_window_hours: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ListingTable {
  id: Generated<number>;
  seller_id: number;
  event_id: number;
  category: string;
  ticket_block: string;
  row: string;
  /** 1 to 6, picks an icon */
  ticket_type_id: number;
  quantity: number;
  /** per ticket, in minor units of `currency` */
  price: number;
  currency: string;
  created_at: string;
  /** tickets a buyer can still take (carts take from it by a conditional update; migration 0008) */
  available: ColumnType<number, number | undefined, number>;
  /** which quantities one purchase may take: any, pairs, all_together, avoid_single */
  split_type: ColumnType<string, string | undefined, string>;
  /** published (on sale), unpublished (kept off sale), deleted (gone from Inventory; migration 0010) */
  status: ColumnType<string, string | undefined, string>;
  /** unsold tickets kept off sale while not published (a trigger moves `available` here) */
  withheld: ColumnType<number, number | undefined, number>;
  seats: ColumnType<string | null, string | null | undefined, string | null>;
  /** minor units of `currency` */
  face_value: ColumnType<number | null, number | null | undefined, number | null>;
  /** a comma list of the contract's ListingRestriction values, '' for none */
  restrictions: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** the day the seller has the tickets from (YYYY-MM-DD; migration 0042): delivery is not due before it */
  in_hand_date: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A resale price cap (migration 0044): per country or per event, at most face value plus `markup_bps`. */
export interface PriceCapTable {
  id: Generated<number>;
  country_id: number | null;
  event_id: number | null;
  markup_bps: number;
  /** 1 applies it, 0 keeps it written down only */
  active: number;
  created_at: string;
  updated_at: string;
}

/** The match catalogue's version, moved by every change of `events` (migration 0031): one row, id 1. */
export interface CatalogVersionTable {
  id: number;
  version: number;
}

/** An event's version is the sum of its rows; event 0 is the catalogue as a whole (migration 0040). */
export interface EventVersionTable {
  event_id: number;
  shard: number;
  version: number;
}

/** What listings with tickets offer per event, currency and seller, kept by triggers on `listings` (migration 0009). */
export interface EventStockTable {
  event_id: number;
  currency: string;
  seller_id: number;
  tickets: number;
  listings: number;
  /** the lowest price per ticket among them, in minor units of `currency`; null when none is left */
  min_price: number | null;
}

/** A user's counts; kept by triggers in `user_feed_count_shards` (a row's shard: its id % 16), summed to read. */
export interface UserFeedCountTable {
  user_id: number;
  notifications: number;
  unread_notifications: number;
  activity: number;
}

export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  /** 'new_order', 'ticket_delivered', 'payout_processed'... */
  name: string;
  description: string;
  /** 0 unread, 1 viewed */
  viewed: ColumnType<number, number | undefined, number>;
  created_at: string;
  /** The portal path the notification is about (`/sales/pending?order=12`), opened from the panel; null: none. */
  link: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SeedFixtureTable {
  name: string;
  applied_at: string;
}

export interface IdempotencyKeyTable {
  user_id: number;
  operation_id: string;
  idem_key: string;
  /** SHA-256 of the request (method, path, query, body, files): the same key with another request is refused. */
  request_hash: string;
  /** The kept reply's HTTP status; 0 only inside the transaction that is still running the call. */
  status: number;
  /** The kept reply's JSON body. */
  response: string;
  created_at: string;
  expires_at: string;
}

export interface FileTable {
  /** The random name the file is stored under in DATA_DIR/uploads. */
  id: string;
  owner_id: number;
  operation_id: string;
  field: string;
  /** What the first bytes show: 'pdf', 'jpg', 'png', 'xlsx', 'csv'... */
  kind: string;
  mime: string;
  size: number;
  sha256: string;
  original_name: string;
  created_at: string;
}

/**
 * An account of the double-entry ledger (server/domain/ledger.ts): a user's SB Pay wallet in one currency
 * (`wallet`), the platform's bank account in one currency (`platform_bank`)... Its balance changes only by
 * the conditional updates of `postEntry`, in the transaction that writes the entry's lines.
 */
export interface LedgerAccountTable {
  id: Generated<number>;
  /** 'wallet:12:GBP', 'platform_bank:GBP': one account per key. */
  account_key: string;
  kind: string;
  owner_id: number | null;
  currency: string;
  /** 1 for the platform's own accounts; 0 (a wallet): the balance never goes below zero. */
  allow_negative: ColumnType<number, number | undefined, number>;
  /** minor units of `currency`, the sum of the account's lines */
  balance: ColumnType<number, number | undefined, number>;
  created_at: string;
}

/** One posting: unique by (kind, reference), so a business event is posted once. */
export interface LedgerEntryTable {
  id: Generated<number>;
  /** 'deposit', 'purchase'... */
  kind: string;
  /** what it posts, e.g. the deposit's id */
  reference: string;
  description: string;
  created_at: string;
}

/** A line of an entry: a signed amount on one account; an entry's lines sum to zero per currency. */
export interface LedgerLineTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  currency: string;
  amount: number;
  /** the account's balance just after this line */
  balance_after: number;
  created_at: string;
}

export type DepositStatus = 'pending' | 'approved' | 'rejected';
export type PaymentTransferBy = 'ONLINE' | 'CASH' | 'CHEQUE';

/** A top-up request: pending until an admin approves it (the ledger credits the wallet) or rejects it. */
export interface DepositTable {
  id: Generated<number>;
  /** the seller whose wallet it tops up (a team member's deposit is its seller's) */
  user_id: number;
  submitted_by: number;
  amount: number;
  currency: string;
  payment_transfer_by: PaymentTransferBy;
  notes: string | null;
  /** the top-up reference of the wallet, as it was when the request was made */
  reference: string;
  proof_file_id: string | null;
  status: DepositStatus;
  rejection_reason: string | null;
  decided_by: number | null;
  decided_at: string | null;
  ledger_entry_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEventTable {
  event_id: string;
  gateway: string;
  type: string;
  outcome: string;
  received_at: string;
}

export interface AddressTable {
  id: Generated<number>;
  owner_id: number;
  first_name: string;
  last_name: string;
  email: string;
  country_code: string | null;
  mobile_number: string | null;
  country_id: number;
  city_id: number | null;
  address: string;
  zip_code: string;
  address_type: string;
  primary_address: ColumnType<number, number | undefined, number>;
  created_at: string;
}

export interface StoredCardTable {
  id: Generated<number>;
  owner_id: number;
  gateway: string;
  brand: string;
  variant: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  holder_name: string;
  recurring_reference: string;
  created_at: string;
}

export interface RecentlyViewedTable {
  user_id: number;
  event_id: number;
  viewed_at: string;
}

export interface TradeTrackingTable {
  id: Generated<number>;
  user_id: number;
  step: string;
  event_id: number | null;
  booking_id: number | null;
  detail: string | null;
  created_at: string;
}

/** A single-use token of an emailed link (server/auth/account-tokens.ts): only its SHA-256 is stored. */
export interface AccountTokenTable {
  token_hash: string;
  user_id: number;
  purpose: 'verify' | 'reset' | 'invite' | 'unlock';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A fixed-window request counter per key (server/auth/request-limit.ts). */
export interface RequestLimitTable {
  key: string;
  window_start: string;
  hits: number;
}

/** Mail kept for the development mail viewer when no SMTP server is configured (server/mail). */
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

/** A seller's payout bank account (migration 0018): IBAN and BIC normalised; removed ones keep their row. */
export interface BankAccountTable {
  id: Generated<number>;
  seller_id: number;
  holder_name: string;
  iban: string;
  bic: string;
  /** 1: the account payouts go to (one per seller) */
  is_default: ColumnType<number, number | undefined, number>;
  created_by: number | null;
  created_at: string;
  deleted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type PayoutStatus = 'requested' | 'sent' | 'failed';

/** A payout (migration 0018): requested (in flight), then sent or failed by the back office. */
export interface PayoutTable {
  id: Generated<number>;
  seller_id: number;
  requested_by: number | null;
  bank_account_id: number;
  currency: string;
  /** minor units taken from the seller's earnings */
  amount: number;
  /** the payout fee, kept when sent */
  fee: number;
  /** amount - fee: what reaches the bank */
  net: number;
  status: PayoutStatus;
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by: ColumnType<number | null, number | null | undefined, number | null>;
  decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

/** How much of a completed order's earnings a payout covers (migration 0018). */
export interface PayoutOrderTable {
  payout_id: number;
  order_id: number;
  amount: number;
}

export type KycDocumentKind = 'photo_id' | 'address_proof' | 'business' | 'seller_contract';

/** The document of each kind a seller has saved for KYC (migration 0016); a new upload replaces it. */
export interface KycDocumentTable {
  seller_id: number;
  kind: KycDocumentKind;
  file_id: string;
  uploaded_at: string;
}

/** A KYC submission (migration 0016): the files as submitted, then approved or rejected by the back office. */
export interface KycSubmissionTable {
  id: Generated<number>;
  seller_id: number;
  account_type: 'individual' | 'company';
  status: 'submitted' | 'approved' | 'rejected';
  photo_id_file: string;
  address_proof_file: string;
  business_file: string | null;
  seller_contract_file: string;
  rejection_reason: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by: ColumnType<number | null, number | null | undefined, number | null>;
  decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  submitted_at: string;
}

/** A signing request of the seller contract through the e-signature port (migration 0016). */
export interface ESignRequestTable {
  id: Generated<number>;
  seller_id: number;
  provider: 'sandbox' | 'zoho';
  provider_request_id: string;
  provider_action_id: string | null;
  status: 'pending' | 'signed';
  signer_name: ColumnType<string | null, string | null | undefined, string | null>;
  signed_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** The local sandbox signer's own documents (server/esign/sandbox.ts, migration 0016). */
export interface ESignSandboxDocumentTable {
  id: string;
  signer_email: string;
  contract_text: string;
  signer_name: ColumnType<string | null, string | null | undefined, string | null>;
  signed_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** A user's TOTP secret (migration 0021): pending until `enabled_at`; `last_step` refuses a code used twice. */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  created_at: string;
  enabled_at: string | null;
  last_step: number | null;
}

/** The SHA-256 of a recovery code of a user's two-factor login; each is used once. */
export interface TwoFactorRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** The SHA-256 of the token a right password earns when a code is due (5 minutes, single-use). */
export interface TwoFactorChallengeTable {
  challenge_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  failures: Generated<number>;
}

/** A seller's referral code (migration 0022), made on first asking. */
export interface ReferralCodeTable {
  user_id: number;
  code: string;
  created_at: string;
}

/** Who signed up with whose referral code; a person is referred once. */
export interface ReferralTable {
  id: Generated<number>;
  referrer_id: number;
  referred_id: number;
  created_at: string;
}

/** A person of SB Portal a seller can reach; `seller_id` null: a default for sellers with none of their own. */
export interface SellerContactTable {
  id: Generated<number>;
  seller_id: number | null;
  position: ColumnType<number, number | undefined, number>;
  name: string;
  role: string;
  email: string;
  phone: string | null;
  hours: string | null;
}

/** A seller's partner (API and affiliate) settings, once saved. */
export interface PartnerSettingTable {
  seller_id: number;
  api_access: number;
  webhook_url: string | null;
  notification_email: string | null;
  updated_by: number | null;
  updated_at: string;
}

/** A feature a user asked for (Settings › Request a Feature). */
export interface FeatureRequestTable {
  id: Generated<number>;
  seller_id: number;
  user_id: number;
  title: string;
  description: string;
  category: string;
  created_at: string;
}

/** A seller's scheduled report email (migration 0023): weekly or monthly, the period's report as XLSX. */
export interface ReportScheduleTable {
  id: Generated<number>;
  seller_id: number;
  /** Who set it, and whose address receives it. */
  user_id: number;
  frequency: 'weekly' | 'monthly';
  currency: string;
  /** The first day (UTC, YYYY-MM-DD) of the last period sent, or of the last one ended when it was set. */
  last_sent_period: string;
  created_at: string;
  updated_at: string;
}

/** A file of a message kept in the outbox (the development mail viewer offers it). */
export interface MailOutboxAttachmentTable {
  id: Generated<number>;
  mail_id: number;
  filename: string;
  mime: string;
  content_base64: string;
}

/** A job that runs once across every server process (migration 0034, server/ops/jobs.ts). */
export interface OpsJobTable {
  name: string;
  /** When a process last claimed a run (ISO); a run is due once this is older than the job's interval. */
  claimed_at: string;
  runs: ColumnType<number, number | undefined, number>;
  last_ok_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the last good run left (a backup: its file and size, as JSON). */
  detail: ColumnType<string | null, string | null | undefined, string | null>;
}
