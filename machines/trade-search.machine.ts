import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { blobOf } from './file-blob';
import { createListMachine, fromPageMeta } from './list.machine';

export type TradeEvent = components['schemas']['TradeEvent'];
export type PurchaseListing = components['schemas']['PurchaseListing'];
export type CurrencyCode = components['schemas']['CurrencyCode'];
export type Booking = components['schemas']['Booking'];
export type BookingStatus = components['schemas']['BookingStatus'];
export type EventPage = DataOf<'/purchase/lmt-trade/events/{match_id}', 'get'>;

/** The spec's toast when a read fails (section 8). */
export const FETCH_FAILED = 'Failed to fetch data';

/** Search Tickets' filters: each a part of the text it names, and the date picker's range. */
export interface TradeSearchFilters {
  name: string;
  team: string;
  competition: string;
  city: string;
  date_from: string | null;
  date_to: string | null;
  currency: CurrencyCode;
}

export const emptySearch = (currency: CurrencyCode = 'GBP'): TradeSearchFilters => ({
  name: '',
  team: '',
  competition: '',
  city: '',
  date_from: null,
  date_to: null,
  currency,
});

const text = (value: string) => (value.trim() ? value.trim() : undefined);

/** Search Tickets (trade/home): upcoming events by name, team, competition, city and dates, numbered pages. */
export const tradeSearchMachine = createListMachine<TradeEvent, TradeSearchFilters>({
  id: 'tradeSearch',
  fetchPage: async ({ page, filters }, signal) => {
    const data = unwrap(
      await api.GET('/purchase/lmt-trade/events-search', {
        params: {
          query: {
            name: text(filters.name),
            team: text(filters.team),
            competition: text(filters.competition),
            city: text(filters.city),
            date_from: filters.date_from ?? undefined,
            date_to: filters.date_to ?? undefined,
            currency: filters.currency,
            page,
            per_page: 20,
          },
        },
        signal,
      }),
    );
    return fromPageMeta(data.events, data.meta);
  },
  keyOf: (event) => event.match_id,
  errorMessage: () => FETCH_FAILED,
  toastsErrors: () => true,
});

export interface EventTicketsFilters {
  matchId: number;
  currency: CurrencyCode;
  quantity: number | null;
  /** By the all-in price per ticket: cheapest first (the server's default) or dearest first. */
  sort?: 'price_asc' | 'price_desc';
  /** The most a ticket may cost all in, minor units of `currency`. */
  maxPrice?: number | null;
}

/** The tickets other sellers offer for one event, cheapest all in first (ordered and filtered by the server). */
export const eventTicketsMachine = createListMachine<PurchaseListing, EventTicketsFilters>({
  id: 'eventTickets',
  fetchPage: async ({ page, filters }, signal) => {
    const data = unwrap(
      await api.GET('/purchase/lmt-trade/events/{match_id}', {
        params: {
          path: { match_id: filters.matchId },
          query: {
            currency: filters.currency,
            quantity: filters.quantity ?? undefined,
            sort: filters.sort,
            max_price: filters.maxPrice ?? undefined,
            page,
            per_page: 20,
          },
        },
        signal,
      }),
    );
    return fromPageMeta(data.tickets, data.meta);
  },
  keyOf: (ticket) => ticket.sNo,
  errorMessage: () => FETCH_FAILED,
  toastsErrors: () => true,
});

/** The buyer's bookings, newest first, with failed, expired and cancelled ones and their reasons. */
export const purchaseHistoryMachine = createListMachine<Booking, { status: BookingStatus | null }>({
  id: 'purchaseHistory',
  fetchPage: async ({ page, filters }, signal) => {
    const data = unwrap(
      await api.GET('/purchase/lmt-trade/history', {
        params: { query: { status: filters.status ?? undefined, page, per_page: 10 } },
        signal,
      }),
    );
    return fromPageMeta(data.booking_list, data.meta);
  },
  keyOf: (booking) => booking.booking_id,
  errorMessage: () => FETCH_FAILED,
  toastsErrors: () => true,
});

/**
 * The delivered tickets of one of the caller's bookings as one zip (issue 12), ready for the browser to save:
 * the server answers its bytes in base64; 409 until a ticket is delivered.
 */
export async function downloadBookingTickets(bookingId: number): Promise<{ name: string; file: Blob }> {
  const zip = unwrap(
    await api.GET('/purchase/lmt-trade/bookings/{booking_id}/tickets', { params: { path: { booking_id: bookingId } } }),
  );
  return { name: zip.name, file: blobOf(zip) };
}

/** Gives up a pending booking (its tickets back on sale at once); `key` makes a repeat of it the same call. */
export async function cancelBooking(bookingId: number, key: string): Promise<Booking> {
  return unwrap(
    await api.POST('/purchase/lmt-trade/bookings/{booking_id}/cancel', {
      params: { header: { 'Idempotency-Key': key }, path: { booking_id: bookingId } },
    }),
  );
}

/** The buyer says they accepted the club's transfer of a booking's mobile tickets; answers the booking. */
export async function acceptTransfer(bookingId: number, key: string): Promise<Booking> {
  return unwrap(
    await api.POST('/purchase/lmt-trade/bookings/{booking_id}/transfer-accepted', {
      params: { header: { 'Idempotency-Key': key }, path: { booking_id: bookingId } },
    }),
  );
}

export type TradeRead =
  | { kind: 'event'; matchId: number; currency: CurrencyCode }
  | { kind: 'recentlyViewed'; currency: CurrencyCode }
  | { kind: 'booking'; bookingNo: string };

export interface TradeReadData {
  event: { event: TradeEvent; guestFields: EventPage['guest_fields'] };
  recentlyViewed: TradeEvent[];
  booking: Booking | null;
}

async function readTrade(input: TradeRead, signal: AbortSignal): Promise<TradeReadData[TradeRead['kind']]> {
  if (input.kind === 'event') {
    const data = unwrap(
      await api.GET('/purchase/lmt-trade/events/{match_id}', {
        params: { path: { match_id: input.matchId }, query: { currency: input.currency, per_page: 1 } },
        signal,
      }),
    );
    // a record of the visit, not something the page waits for
    void api
      .POST('/purchase/lmt-trade/add-recently-viewed', {
        params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
        body: { match_id: input.matchId },
      })
      .catch(() => {});
    return { event: data.event, guestFields: data.guest_fields };
  }
  if (input.kind === 'recentlyViewed') {
    return unwrap(
      await api.GET('/purchase/lmt-trade/events-search', {
        params: { query: { currency: input.currency, per_page: 1 } },
        signal,
      }),
    ).recently_viewed;
  }
  return (
    unwrap(await api.GET('/purchase/lmt-trade/history', { params: { query: { booking_no: input.bookingNo } }, signal }))
      .booking_list[0] ?? null
  );
}

/**
 * One read shown on a page (loading, shown, failed with Retry): an event's header (opening it records the
 * event as recently viewed), the recently viewed events, the booking of the purchase success page.
 */
export const tradeReadMachine = setup({
  types: {
    context: {} as { input: TradeRead; data: TradeReadData[TradeRead['kind']] | null },
    input: {} as TradeRead,
    events: {} as { type: 'read.retried' },
  },
  actors: {
    load: fromPromise<TradeReadData[TradeRead['kind']], TradeRead>(({ input, signal }) => readTrade(input, signal)),
  },
  actions: { store: assign((_, data: TradeReadData[TradeRead['kind']]) => ({ data })) },
}).createMachine({
  id: 'tradeRead',
  context: ({ input }) => ({ input, data: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => context.input,
        onDone: { target: 'shown', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    shown: {},
    failed: { tags: ['error'], on: { 'read.retried': 'loading' } },
  },
});
