import type { ColumnType, Generated } from 'kysely';

/**
 * The purchase's tables (server/domain/purchase): carts, bookings, payments, the sandbox gateway's intents and
 * the webhooks' events, the buyer's addresses and stored cards, what the buyer viewed and the trade's tracking.
 */

/** A hold of tickets of a listing for 15 minutes (server/domain/purchase). */
export interface CartTable {
  id: Generated<number>;
  /** the account that buys (a team member buys for its seller) */
  buyer_id: number;
  /** who made it */
  user_id: number;
  listing_id: number;
  event_id: number;
  quantity: number;
  currency: string;
  /** per ticket, in minor units of `currency` (converted from the listing's) */
  unit_price: number;
  payment_method: number;
  /** The listing's terms when its tickets were held (migration 0033): what the booking and the order are of. */
  category: ColumnType<string, string | undefined, string>;
  ticket_block: ColumnType<string, string | undefined, string>;
  row: ColumnType<string, string | undefined, string>;
  seats: ColumnType<string | null, string | null | undefined, string | null>;
  ticket_type_id: ColumnType<number, number | undefined, number>;
  /** the seller's price per ticket then, in minor units of `seller_currency`: the seller's takings */
  seller_unit_price: ColumnType<number, number | undefined, number>;
  seller_currency: ColumnType<string, string | undefined, string>;
  in_hand_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** the listing's face value per ticket then, in minor units of `seller_currency` (migration 0046) */
  face_value: ColumnType<number | null, number | null | undefined, number | null>;
  /** the listing's restrictions then, a comma list (migration 0046) */
  restrictions: ColumnType<string, string | undefined, string>;
  /** held, booked, expired, released */
  status: string;
  /** holding (its tickets are taken from the listing), released (given back), sold (a booking confirmed) */
  hold_state: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface BookingTable {
  id: Generated<number>;
  booking_no: string;
  cart_id: number;
  buyer_id: number;
  user_id: number;
  seller_id: number;
  listing_id: number;
  event_id: number;
  quantity: number;
  currency: string;
  unit_price: number;
  payment_method: number;
  /** pending, confirmed, failed, expired, cancelled */
  status: string;
  status_reason: string | null;
  /** the billing address, JSON */
  billing: string;
  /** the event's required guest fields when the booking was made (comma list) */
  guest_fields: string;
  /** the guests' details, JSON: [{ attendee_number, fields: [{ field, value }] }] */
  attendees: string;
  guests_complete: number;
  /** the seller's sale, once confirmed */
  order_id: number | null;
  expires_at: string;
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentTable {
  id: Generated<number>;
  booking_id: number;
  buyer_id: number;
  payment_method: number;
  /** sbpay, stripe, adyen, sandbox */
  gateway: string;
  /** the gateway's id of it (intent id, PSP reference, ledger entry) */
  reference: string;
  amount: ColumnType<number, number, number>;
  currency: string;
  /**
   * requires_payment_method (not authorised yet: a card intent not confirmed, a stored card's payment waiting for
   * its challenge), succeeded, failed, refunded
   */
  status: string;
  failure_reason: string | null;
  /**
   * How the card holder was authenticated, or the exemption that applied (migration 0046): challenge,
   * frictionless, exemption, none (no 3-D Secure), not_applicable (SB Pay); null before it is known.
   */
  authentication: ColumnType<string | null, string | null | undefined, string | null>;
  refunded_amount: ColumnType<number, number | undefined, number>;
  created_at: string;
  updated_at: string;
}

/** The sandbox gateway's payment intents (its state lives in our database, like a provider's in theirs). */
export interface SandboxIntentTable {
  id: string;
  client_secret: string;
  owner_id: number;
  idempotency_key: string;
  amount: ColumnType<number, number, number>;
  currency: string;
  /** JSON */
  metadata: string;
  status: string;
  last_error: string | null;
  refunded: ColumnType<number, number | undefined, number>;
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
