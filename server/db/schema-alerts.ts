import type { ColumnType, Generated } from 'kysely';

/** Seat and price alerts (migration 0052): see server/domain/alerts/. */

export type SeatAlertState = 'active' | 'deleted';

export interface SeatAlertTable {
  id: Generated<number>;
  /** The account that buys (a team member's alert buys for its owner), and the person who made it. */
  buyer_id: number;
  user_id: number;
  event_id: number;
  /** Tickets that sit together: a listing fits when its split lets one purchase take exactly this many. */
  quantity: number;
  /** Only this category (case-insensitive), or any. */
  category: string | null;
  /** Only these blocks: a comma-separated list (case-insensitive), or any. */
  blocks: string | null;
  /** The all-in price ceiling a ticket, fees included, in minor units of `currency`. */
  max_price: number;
  currency: string;
  by_mail: ColumnType<number, number | undefined, number>;
  state: SeatAlertState;
  created_at: string;
}

/** held: a cart holds the seats for the buyer; bought: its booking is paid; waiting: an earlier alert holds them; lapsed: the hold ended unpaid. */
export type SeatAlertMatchState = 'held' | 'bought' | 'waiting' | 'lapsed';

export interface SeatAlertMatchTable {
  id: Generated<number>;
  alert_id: number;
  listing_id: number;
  state: SeatAlertMatchState;
  /** The all-in price a ticket when it matched, in the alert's currency. */
  unit_all_in: number;
  cart_id: number | null;
  matched_at: string;
  held_at: string | null;
}
