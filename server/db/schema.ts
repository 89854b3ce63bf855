import type {
  AdminAuditLogTable,
  BankStatementLineTable,
  BankStatementTable,
  ErasureRequestTable,
} from './schema-admin';
import type { SeatAlertMatchTable, SeatAlertTable } from './schema-alerts';
import type {
  CatalogVersionTable,
  CityTable,
  CountryTable,
  CurrencyTable,
  EventStockTable,
  EventTable,
  EventVersionTable,
} from './schema-catalog';
import type { DeliveryProofTable, OrderDisputeTable } from './schema-disputes';
import type { ESignRequestTable, ESignSandboxDocumentTable, KycDocumentTable, KycSubmissionTable } from './schema-kyc';
import type {
  AdditionalTemplateTable,
  EventRequestTable,
  FieldSettingTable,
  ListingCountTable,
  ListingFileTable,
  ListingLogTable,
  ListingTable,
  ListingTemplateTable,
  ListingViewTable,
  PriceCapTable,
} from './schema-listings';
import type {
  LoginClientFailureTable,
  LoginDeviceFailureTable,
  LoginDeviceTable,
  LoginFailureTable,
  LoginPairFailureTable,
} from './schema-login';
import type {
  FileTable,
  IdempotencyKeyTable,
  MailOutboxAttachmentTable,
  MailOutboxTable,
  NotificationTable,
  OpsJobTable,
  SeedFixtureTable,
  UserFeedCountTable,
} from './schema-platform';
import type {
  AddressTable,
  BookingTable,
  CartTable,
  PaymentTable,
  RecentlyViewedTable,
  SandboxIntentTable,
  StoredCardTable,
  TradeTrackingTable,
  WebhookEventTable,
} from './schema-purchase';
import type {
  OrderDeliveryTable,
  OrderLogTable,
  OrderTable,
  SellerEventTotalTable,
  SellerMatchOrdersTable,
  SellerOrderTotalTable,
} from './schema-sales';
import type {
  FeatureRequestTable,
  PartnerSettingTable,
  ReferralCodeTable,
  ReferralTable,
  ReportScheduleTable,
  SellerContactTable,
} from './schema-settings';
import type {
  AccountTokenTable,
  ActivityTable,
  AuthTokenTable,
  PermissionTable,
  RequestLimitTable,
  TwoFactorChallengeTable,
  TwoFactorRecoveryCodeTable,
  TwoFactorTable,
  UserPermissionTable,
  UserTable,
} from './schema-users';
import type {
  BankAccountTable,
  DepositTable,
  LedgerAccountTable,
  LedgerEntryTable,
  LedgerLineTable,
  PayoutOrderTable,
  PayoutTable,
} from './schema-wallet';

export { ORDER_STATUSES, type OrderStatus } from './schema-sales';

/**
 * The database's tables as Kysely sees them. Timestamps are ISO-8601 UTC strings (they sort and compare as
 * text on SQLite and Postgres alike); flags are 0/1 integers; money is an integer of minor units.
 */
export interface Database {
  seat_alerts: SeatAlertTable;
  seat_alert_matches: SeatAlertMatchTable;
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
  api_tokens: import('./schema-seller-api').ApiTokenTable;
  listing_holds: import('./schema-seller-api').ListingHoldTable;
  webhook_endpoints: import('./schema-seller-api').WebhookEndpointTable;
  webhook_deliveries: import('./schema-seller-api').WebhookDeliveryTable;
  webhook_attempts: import('./schema-seller-api').WebhookAttemptTable;
  delivery_proofs: DeliveryProofTable;
  order_disputes: OrderDisputeTable;
}
