import type { ColumnType, Generated } from 'kysely';

// The seller settings' tables (server/domain): referrals, contacts, partner settings, feature requests and
// report schedules. A part of server/db/schema.ts's Database.

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
