import type { ColumnType, Generated } from 'kysely';
import { type components, orderStatusValues } from '../../openapi/schema';

/** The sales area's tables (orders, their logs and deliveries, the kept totals): see server/db/schema.ts. */
/** The contract's order statuses, in the order of the sales sub-pages (generated into openapi/schema.ts). */
export const ORDER_STATUSES = orderStatusValues;
export type OrderStatus = components['schemas']['OrderStatus'];

export interface OrderTable {
  id: Generated<number>;
  /** 'SB-100042' */
  booking_no: string;
  listing_id: number;
  seller_id: number;
  event_id: number;
  quantity: number;
  /** the whole order, in minor units of `currency` */
  amount: number;
  currency: string;
  status: OrderStatus;
  created_at: string;
  updated_at: string;
  /** The event's date and time, copied when the order is recorded (awaiting delivery sorts by them). */
  event_date: string;
  event_time: string;
  /** The seats sold, copied from the listing at sale (migration 0033): a later edit of the listing keeps them. */
  category: ColumnType<string, string | undefined, string>;
  ticket_block: ColumnType<string, string | undefined, string>;
  row: ColumnType<string, string | undefined, string>;
  seats: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 12 (migration 0011): how the order's tickets are delivered (from the listing at sale). */
  ticket_type_id: ColumnType<number, number | undefined, number>;
  /** How many of its tickets are delivered. */
  delivered: ColumnType<number, number | undefined, number>;
  /** While pending: when its 48 hours to accept end. */
  accept_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** While pending or confirmed: the delivery deadline. */
  deliver_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The day the seller has the tickets from (YYYY-MM-DD), the listing's at the sale (migration 0042). */
  in_hand_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the event's mobile transfers open (kick-off less its window), as at the sale; null: no window. */
  transfers_open_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the buyer said they accepted the transfer; null while not (migration 0049). */
  transfer_accepted_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Reminders sent to the buyer to accept the transfer, and the last one's time. */
  transfer_reminders: ColumnType<number, number | undefined, number>;
  transfer_reminded_at: ColumnType<string | null, string | null | undefined, string | null>;
  notes: ColumnType<string | null, string | null | undefined, string | null>;
  notes_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  instruction_file_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON list of {first_name, last_name} for orders with no booking behind them; '' when none. */
  guests: ColumnType<string, string | undefined, string>;
}

/** One change of an order (issue 12): who, when, from, to, why. */
export interface OrderLogTable {
  id: Generated<number>;
  order_id: number;
  action: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  reason: string | null;
  detail: string | null;
  actor: 'seller' | 'admin' | 'system' | 'buyer';
  user_id: number | null;
  created_at: string;
}

/** One delivered ticket of an order (issue 12), unique by (order_id, ticket_no). */
export interface OrderDeliveryTable {
  id: Generated<number>;
  order_id: number;
  ticket_no: number;
  type: 'pdf' | 'pdf_page' | 'transfer_link' | 'wallet_pass' | 'courier' | 'collection';
  file_id: string | null;
  page: number | null;
  transfer_link: string | null;
  courier: string | null;
  tracking_number: string | null;
  user_id: number | null;
  delivered_at: string;
}

/**
 * A seller's orders, tickets and amount per currency and status, kept by `recordOrder` and `changeOrderStatus`
 * (server/domain/sales/totals.ts) in the transaction of each order write.
 */
export interface SellerOrderTotalTable {
  seller_id: number;
  currency: string;
  status: OrderStatus;
  /** Which of the 16 rows of (seller, currency, status) (migration 0038): its orders' ids modulo 16. */
  shard: ColumnType<number, number | undefined, number>;
  orders: number;
  tickets: number;
  /** minor units of `currency` */
  amount: number;
}

/** The same per event, for the orders that are not cancelled (top-selling events). */
export interface SellerEventTotalTable {
  seller_id: number;
  currency: string;
  event_id: number;
  orders: number;
  tickets: number;
  amount: number;
}

/** A seller's orders per status, match and currency (migration 0030): the sales lists' match search total. */
export interface SellerMatchOrdersTable {
  seller_id: number;
  status: OrderStatus;
  event_id: number;
  currency: string;
  orders: number;
}
