import * as v from 'valibot';
import { ApiError, api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { upload } from '../openapi/upload';
import { proxySaveListingBody, requestEventBody, updateMyListingsTicketPriceBody } from '../openapi/valibot';
import { fromPageMeta, type ListPage, type ListRequest } from './list.machine';

// The listings operations of the contract (issue 11), as the listings machines call them.

export type CurrencyCode = components['schemas']['CurrencyCode'];
export type ListingStatus = components['schemas']['ListingStatus'];
export type SplitType = components['schemas']['SplitType'];
export type ListingRestriction = components['schemas']['ListingRestriction'];
export type InventorySort = components['schemas']['ListingSort'];
export type Listing = components['schemas']['MyListing'];
export type ListingUpdate = components['schemas']['ListingUpdate'];
export type CatalogueMatch = components['schemas']['ListingEvent'];
export type MarketInsights = components['schemas']['MarketInsights'];
export type EventRequest = components['schemas']['EventRequest'];
export type BulkRowError = components['schemas']['BulkRowError'];
export type BlockDetails = DataOf<'/my-listings/get-block-details', 'get'>;
export type CreatedListing = Listing;
export type ListingSale = components['schemas']['ListingSale'];
export type ListingFile = components['schemas']['ListingFile'];
export type ListingLog = components['schemas']['ListingLog'];
export type AdditionalTemplate = components['schemas']['AdditionalTemplate'];

/** The spec's toast when a read fails (section 8). */
export const FETCH_FAILED = 'Failed to fetch data';
/** Rows Inventory's first page holds: a screen and a half of the grid, so that it paints soon. */
export const INVENTORY_FIRST_PAGE_SIZE = 50;
/** Rows each later page holds (the contract's most), read as the end of the grid comes into view. */
export const INVENTORY_PAGE_SIZE = 200;
/** The page name the field settings are saved under. */
export const FIELD_SETTINGS_PAGE = 'my-listings';

export interface MatchSearchFilters {
  q: string;
  date_from: string | null;
  date_to: string | null;
}
export interface InventoryFilters {
  q: string;
  date_from: string | null;
  date_to: string | null;
  status: ListingStatus | null;
  ticket_type_id: number | null;
}
export interface InsightQuery {
  match_id: number;
  category: string;
  price: number;
  currency: CurrencyCode;
  quantity?: number;
  face_value?: number;
}
export type DetailKind = 'history' | 'logs' | 'insights';
export type ListingDetail =
  | { kind: 'history'; sales: ListingSale[]; files: ListingFile[] }
  | { kind: 'logs'; logs: ListingLog[] }
  | { kind: 'insights'; insights: MarketInsights };
/** The fields of a listing a change touched, by listing. */
export interface ListingPatch {
  id: number;
  changes: Partial<Listing>;
}

/** 500 -> '5.00': minor units as the price field shows them. */
const amountOf = (minor: number | string | undefined) => {
  const n = Number(minor);
  return `${Math.floor(n / 100).toLocaleString('en-GB')}.${String(n % 100).padStart(2, '0')}`;
};

/** The words for a price per ticket out of the contract's bounds (ListingPrice): the limit comes with them. */
const priceWords = {
  type: 'Enter the price per ticket.',
  minimum: (least: number | string | undefined) => `A ticket costs at least ${amountOf(least)}.`,
  maximum: (most: number | string | undefined) => `A ticket costs at most ${amountOf(most)}.`,
};

/** The listing form's checks: the contract's (the save-listing body), with words for people. */
export const listingSchema = proxySaveListingBody(
  formMessages({
    category: { required: 'Choose the category.', type: 'Choose the category.' },
    ticket_block: { required: 'Enter the block.' },
    row: { required: 'Enter the row.' },
    ticket_type_id: { type: 'Choose the ticket type.' },
    quantity: {
      type: 'Enter how many tickets.',
      minimum: 'List at least 1 ticket.',
      maximum: 'A listing has at most 1,000 tickets.',
      integer: 'Enter a whole number of tickets.',
    },
    split_type: { enum: 'Choose how the tickets may be split.' },
    price: priceWords,
    face_value: { minimum: 'Enter a face value above zero.', maximum: 'A face value is at most 100,000.00.' },
    currency: { enum: 'Choose the currency.' },
  }),
);
export type ListingValues = v.InferInput<typeof listingSchema>;

/** A new price for a selection (update-ticket-price): the contract's checks, with the listing form's words. */
const newPriceSchema = updateMyListingsTicketPriceBody(formMessages({ price: priceWords }));

/** What is wrong with a new price per ticket by the contract's rule ('A ticket costs at least 5.00.'), or null. */
export function newPriceProblem(minor: number | null): string | null {
  if (minor === null) return null;
  const checked = v.safeParse(newPriceSchema.entries.price, minor);
  return checked.success ? null : (checked.issues[0]?.message ?? null);
}

/** The least and the most a ticket may cost, in minor units: the contract's ListingPrice, as its schema checks it. */
export const PRICE_BOUNDS = (() => {
  const bounds = { least: 1, most: Number.MAX_SAFE_INTEGER };
  for (const step of listingSchema.entries.price.pipe) {
    if (step.type === 'min_value') bounds.least = Number(step.requirement);
    if (step.type === 'max_value') bounds.most = Number(step.requirement);
  }
  return { ...bounds, text: `From ${amountOf(bounds.least)} to ${amountOf(bounds.most)} a ticket.` };
})();

/** 'Request an event': the contract's checks, with words for people. */
export const eventRequestSchema = requestEventBody(
  formMessages({
    match_name: { required: 'Enter the event name.', minLength: 'Enter the event name.' },
    match_date: { required: 'Choose the date.', format: 'Choose the date.' },
    stadium_name: { required: 'Enter the venue.', minLength: 'Enter the venue.' },
    match_time: { pattern: 'Enter the kick-off time as HH:MM.' },
  }),
);
export const EVENT_REQUEST_EMPTY = {
  match_name: '',
  match_date: '',
  stadium_name: '',
  city_name: '',
  home_team: '',
  away_team: '',
  tournament: '',
  notes: '',
};

const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
const key = () => globalThis.crypto.randomUUID();

/** A file as far as the browser can tell one from another without reading it. */
const fileMark = (f: File) => `${f.name}|${f.size}|${f.lastModified}`;

/**
 * Idempotency keys for one kind of write: the same values keep the same key until a call with them succeeds,
 * so a retry after a lost answer (a timeout, the network gone) replays the first call on the server instead of
 * creating the listing twice; other values, or the same values after a success (a second listing on purpose),
 * take a new key. The key is a per-write nonce and a hash of the values (files by name, size and date).
 */
export function requestKeys() {
  let nonce = key();
  return {
    keyFor(values: unknown): string {
      const text = JSON.stringify(values, (_, v) => (v instanceof File ? fileMark(v) : v));
      // FNV-1a, 32 bits: the values' fingerprint inside one nonce
      let h = 0x811c9dc5;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
      return `${nonce}-${h.toString(16).padStart(8, '0')}`;
    },
    succeeded() {
      nonce = key();
    },
  };
}

const listingKeys = requestKeys();
const eventRequestKeys = requestKeys();

export async function fetchCatalogueMatches(
  { page, filters }: ListRequest<MatchSearchFilters, never>,
  signal: AbortSignal,
): Promise<ListPage<CatalogueMatch>> {
  const data = unwrap(
    await api.GET('/my-listings/events-search', {
      params: {
        query: {
          q: text(filters.q),
          date_from: filters.date_from ?? undefined,
          date_to: filters.date_to ?? undefined,
          page,
          per_page: 20,
        },
      },
      signal,
    }),
    FETCH_FAILED,
  );
  return fromPageMeta(data.events, data.meta);
}

export async function loadBlockDetails(matchId: number, signal: AbortSignal): Promise<BlockDetails> {
  return unwrap(await api.GET('/my-listings/get-block-details', { params: { query: { match_id: matchId } }, signal }));
}

export async function loadMarketInsights(query: InsightQuery, signal: AbortSignal): Promise<MarketInsights> {
  return unwrap(await api.GET('/my-listings/market-insights', { params: { query }, signal }));
}

export async function saveListing(values: v.InferOutput<typeof listingSchema>, signal: AbortSignal) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === '') continue;
    if (name === 'files') for (const file of value as File[]) form.append('files', file, file.name);
    else form.append(name, String(value));
  }
  const saved = await upload('/api/save-listing', form, { idempotencyKey: listingKeys.keyFor(values), signal });
  listingKeys.succeeded();
  return saved;
}

export async function sendEventRequest(values: v.InferOutput<typeof eventRequestSchema>, signal: AbortSignal) {
  const body = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as typeof values;
  const sent = unwrap(
    await api.POST('/match/request-event', {
      body,
      params: { header: { 'Idempotency-Key': eventRequestKeys.keyFor(body) } },
      signal,
    }),
  );
  eventRequestKeys.succeeded();
  return sent;
}

/** The seller's additional templates (at most 100, one page), by name. */
export async function loadTemplates(signal: AbortSignal): Promise<AdditionalTemplate[]> {
  return unwrap(await api.GET('/settings/additional-templates', { signal }), FETCH_FAILED).templates;
}

export async function loadEventRequests(signal: AbortSignal): Promise<EventRequest[]> {
  const data = unwrap(
    await api.GET('/match/requested-events', { params: { query: { page: 1, per_page: 20 } }, signal }),
  );
  return data.requests;
}

export async function fetchInventoryPage(
  { page, cursor, filters, sort }: ListRequest<InventoryFilters, InventorySort>,
  signal: AbortSignal,
): Promise<ListPage<Listing>> {
  const data = unwrap(
    await api.GET('/my-listings', {
      params: {
        query: {
          ...(cursor ? { cursor } : { page }),
          per_page: cursor || page > 1 ? INVENTORY_PAGE_SIZE : INVENTORY_FIRST_PAGE_SIZE,
          q: text(filters.q),
          date_from: filters.date_from ?? undefined,
          date_to: filters.date_to ?? undefined,
          status: filters.status ?? undefined,
          ticket_type_id: filters.ticket_type_id ?? undefined,
          sort: sort ?? undefined,
        },
      },
      signal,
    }),
    FETCH_FAILED,
  );
  return { ...fromPageMeta(data.tickets, data.meta), nextCursor: data.meta.next_cursor ?? null };
}

/** The columns the seller hid on Inventory (every column shows before the first save). */
export async function loadColumnSettings(signal: AbortSignal): Promise<string[]> {
  const data = unwrap(
    await api.GET('/ui-settings/field-settings', { params: { query: { page: FIELD_SETTINGS_PAGE } }, signal }),
  );
  return data.columns.filter((c) => !c.visible).map((c) => c.key);
}

export async function saveColumnSettings(
  all: readonly string[],
  hidden: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  const columns = all.map((key) => ({ key, visible: !hidden.includes(key) }));
  unwrap(await api.POST('/ui-settings/save-field-settings', { body: { page: FIELD_SETTINGS_PAGE, columns }, signal }));
}

/** Which listings a change of a selection is for: ids, or every listing the filters match. */
export type ListingTarget = { ids: number[] } | { filter: InventoryFilters };
/** A new price: an amount, or each one raised or lowered by an amount or a percentage. */
export type PriceAsk = { price: number } | { change_amount: number } | { change_percent: number };
/** What a change of a selection did: the rows it touched, and its id for Undo (null: nothing changed). */
export interface ChangeOutcome {
  patches: ListingPatch[];
  changeId: string | null;
  message: string;
}

/** The target as the contract's selection: `ticket_ids`, or `filter` with the filters given. */
export function selectionOf(target: ListingTarget) {
  if ('ids' in target) return { ticket_ids: target.ids };
  const f = target.filter;
  return {
    filter: {
      ...(text(f.q) ? { q: text(f.q) } : {}),
      ...(f.date_from ? { date_from: f.date_from } : {}),
      ...(f.date_to ? { date_to: f.date_to } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.ticket_type_id ? { ticket_type_id: f.ticket_type_id } : {}),
    },
  };
}

export async function updateListingPrices(
  target: ListingTarget,
  ask: PriceAsk,
  signal: AbortSignal,
): Promise<ChangeOutcome> {
  const res = await api.POST('/my-listings/update-ticket-price', { body: { ...selectionOf(target), ...ask }, signal });
  const data = unwrap(res);
  return {
    patches: data.tickets.map((t) => ({ id: t.ticket_id, changes: { price: t.price, currency: t.currency } })),
    changeId: data.change_id,
    message: res.data?.message ?? 'Price updated',
  };
}

export async function updateListingStatus(
  target: ListingTarget,
  status: ListingStatus,
  signal: AbortSignal,
): Promise<ChangeOutcome> {
  const res = await api.POST('/my-listings/update-ticket-status', {
    body: { ...selectionOf(target), status },
    signal,
  });
  const data = unwrap(res);
  return {
    patches: data.tickets.map((t) => ({ id: t.ticket_id, changes: { status: t.status, available: t.available } })),
    changeId: data.change_id,
    message: res.data?.message ?? 'Status updated',
  };
}

/** Deletes the target's listings at once (all or nothing); answers the server's words. */
export async function deleteListings(target: ListingTarget, signal: AbortSignal): Promise<string> {
  const res = await api.POST('/my-listings/delete-tickets', { body: selectionOf(target), signal });
  unwrap(res);
  return res.data?.message ?? 'Listings deleted';
}

/** Undoes a change of a selection (its change id); answers the server's words ('Undone: 12 listings restored.'). */
export async function undoListingChange(changeId: string, signal: AbortSignal): Promise<string> {
  const res = await api.POST('/my-listings/undo-change', { body: { change_id: changeId }, signal });
  unwrap(res);
  return res.data?.message ?? 'Undone';
}

export type ListingView = components['schemas']['ListingView'];
export type ListingViewInput = components['schemas']['ListingViewInput'];

export async function loadListingViews(signal: AbortSignal): Promise<ListingView[]> {
  return unwrap(await api.GET('/my-listings/views', { signal }), FETCH_FAILED).views;
}

export async function saveListingView(view: ListingViewInput, signal: AbortSignal): Promise<ListingView> {
  return unwrap(await api.POST('/my-listings/views', { body: view, signal }));
}

export async function deleteListingView(id: number, signal: AbortSignal): Promise<void> {
  const res = await api.DELETE('/my-listings/views/{id}', { params: { path: { id } }, signal });
  // the answer has no data: only a refusal is read
  if (res.error) unwrap(res);
}

/** PUT update-ticket: the fields given change; the answer is the whole listing, which replaces the row. */
export async function editListing(id: number, changes: ListingUpdate, signal: AbortSignal): Promise<ListingPatch> {
  const listing = unwrap(
    await api.PUT('/my-listings/update-ticket/{id}', { params: { path: { id } }, body: changes, signal }),
  );
  return { id: listing.id, changes: listing };
}

export async function deleteListing(id: number, signal: AbortSignal): Promise<void> {
  unwrap(await api.DELETE('/my-listings/ticket/delete/{id}', { params: { path: { id } }, signal }));
}

export async function loadListingDetail(
  listing: Listing,
  kind: DetailKind,
  signal: AbortSignal,
): Promise<ListingDetail> {
  const ticket_id = listing.id;
  if (kind === 'history') {
    const data = unwrap(await api.GET('/my-listings/ticket-history', { params: { query: { ticket_id } }, signal }));
    return { kind, sales: data.sales, files: data.files };
  }
  if (kind === 'logs') {
    const data = unwrap(
      await api.GET('/my-listings/ticket-logs', { params: { query: { ticket_id, per_page: 100 } }, signal }),
    );
    return { kind, logs: data.logs };
  }
  const insights = unwrap(
    await api.GET('/my-listings/market-insights', {
      params: {
        query: {
          match_id: listing.match_id,
          category: listing.Category,
          price: listing.price,
          currency: listing.currency,
          quantity: Math.max(1, listing.quantity - listing.sold),
          ticket_type_id: listing.ticket_type_id,
          face_value: listing.face_value ?? undefined,
        },
      },
      signal,
    }),
  );
  return { kind, insights };
}

/** Uploads ticket files to an existing listing (1 to 10, pdf/jpg/jpeg/png, 5 MB each); answers its files now. */
export async function uploadTicketFiles(
  ticketId: number,
  files: readonly File[],
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<ListingFile[]> {
  const form = new FormData();
  form.append('ticket_id', String(ticketId));
  for (const f of files) form.append('files', f, f.name);
  const data = await upload('/api/my-listing-upload', form, {
    idempotencyKey: globalThis.crypto.randomUUID(),
    signal,
    onProgress: ({ fraction }) => onProgress(fraction),
  });
  return data.files;
}
