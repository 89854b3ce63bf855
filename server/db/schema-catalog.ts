import type { ColumnType, Generated } from 'kysely';

// The match catalogue's tables (server/domain/purchase/catalog.ts): currencies, places, events, and what is kept
// of them (versions, the stock on offer). A part of server/db/schema.ts's Database.

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
