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
