import type { ColumnType, Generated } from 'kysely';

// The listings' tables (server/domain/listings), as Kysely sees them: a part of server/db/schema.ts's Database.

/** One change of a listing (server/domain/listings): who, what, from which value to which (as text). */
export interface ListingLogTable {
  id: Generated<number>;
  listing_id: number;
  seller_id: number;
  user_id: number;
  /** created, updated, price_changed, published, unpublished, deleted, files_uploaded */
  action: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  /** The change of a selection this row is part of (migration 0045), which Undo reverts; null for one-off edits. */
  change_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** A ticket file of a listing: a row of `files`. */
export interface ListingFileTable {
  listing_id: number;
  file_id: string;
  created_at: string;
}

/** A seller's request for a match that is not in the catalogue. */
export interface EventRequestTable {
  id: Generated<number>;
  seller_id: number;
  user_id: number;
  match_name: string;
  home_team: string | null;
  away_team: string | null;
  tournament: string | null;
  /** 'YYYY-MM-DD' */
  match_date: string;
  match_time: string | null;
  stadium_name: string;
  city_name: string | null;
  notes: string | null;
  /** pending, approved, rejected */
  status: ColumnType<string, string | undefined, string>;
  status_reason: string | null;
  event_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A user's column choices for a page's table, JSON [{ key, visible }]. */
export interface FieldSettingTable {
  user_id: number;
  page: string;
  columns: string;
  updated_at: string;
}

/** A seller's additional template (issue 11): a reusable text, with an optional file, a listing may carry. */
export interface AdditionalTemplateTable {
  id: Generated<number>;
  seller_id: number;
  name: string;
  /** the name in lower case, unique per seller */
  name_key: string;
  content: string;
  file_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The additional templates a listing carries. */
export interface ListingTemplateTable {
  listing_id: number;
  template_id: number;
}

/** How many listings a seller has in each status (migration 0025), kept by triggers on `listings`. */
export interface ListingCountTable {
  seller_id: number;
  status: string;
  listings: number;
}

/** A seller's saved view of Inventory (migration 0045): its filters, sort and columns as JSON, by name. */
export interface ListingViewTable {
  id: Generated<number>;
  seller_id: number;
  name: string;
  /** the name in lower case, unique per seller */
  name_key: string;
  /** JSON: { filters, sort, hidden } */
  settings: string;
  created_at: string;
  updated_at: string;
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
