import { api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { upload } from '../openapi/upload';
import { blobOf } from './file-blob';
import { fromPageMeta, type ListPage, type ListRequest } from './list.machine';
import { requestKeys } from './listings-api';
import type { SalesStatus } from './sales-statuses';

/** A row of a sales list (history-all-currency). */
export type SalesOrderRow = DataOf<'/sales/history-all-currency', 'get'>['orders'][number];
/** An order as the drawer shows it (order-details): the row, its tickets, guests, amounts, notes and actions. */
export type SalesOrder = DataOf<'/sales/order-details', 'get'>;
export type SalesTicket = SalesOrder['tickets'][number];
export type SalesOrderLog = DataOf<'/sales/order-logs', 'get'>['logs'][number];
export type SalesInventoryLog = DataOf<'/sales/inventory-logs', 'get'>['logs'][number];
export type SalesTicketType = DataOf<'/sales/ticket-types', 'get'>[number];
export type SalesCurrencyOverview = DataOf<'/sales/overview-all-currency', 'get'>['currencies'][number];
export type SalesSort = components['schemas']['SalesSort'];
export type SalesDateField = components['schemas']['SalesDateField'];
export type ExportFormat = components['schemas']['SalesExportFormat'];
export type CurrencyCode = components['schemas']['CurrencyCode'];
export type PdfMode = components['schemas']['SalesPdfMode'];

export const SALES_LOAD_ERROR = 'Failed to fetch data';

export interface OrderLogs {
  order: SalesOrderLog[];
  inventory: SalesInventoryLog[];
}

/** What the seller chose on a sales list; the status is the page's. */
export interface SalesFilters {
  date_from: string | null;
  date_to: string | null;
  date_field: SalesDateField;
  /** Match, team or competition. */
  q: string;
  booking_no: string;
  ticket_type_id: number | null;
  currency: CurrencyCode | null;
}

/** One delivery the drawer sends, by the order's delivery method. */
export type Delivery =
  | { kind: 'pdf'; files: File[]; mode: PdfMode; ticketNos?: number[] }
  | { kind: 'mobile'; links: string[]; wholeOrder?: boolean; ticketNos?: number[] }
  | { kind: 'wallet'; files: File[]; ticketNos?: number[] }
  | { kind: 'courier'; courier: string; trackingNumber: string; proof: File | null; ticketNos?: number[] }
  | { kind: 'instructions'; file: File };

/** A file the server sends as base64 (an export, the tickets' zip), ready to save. */
export interface SavedFile {
  name: string;
  file: Blob;
}

/** The filters as the list's query: an unset filter is not sent. */
export function salesQuery(filters: SalesFilters) {
  const text = (v: string) => (v.trim() ? v.trim() : undefined);
  return {
    date_from: filters.date_from ?? undefined,
    date_to: filters.date_to ?? undefined,
    date_field: filters.date_from || filters.date_to ? filters.date_field : undefined,
    q: text(filters.q),
    booking_no: text(filters.booking_no),
    ticket_type_id: (filters.ticket_type_id ?? undefined) as components['schemas']['TicketTypeId'] | undefined,
    currency: filters.currency ?? undefined,
  };
}

export async function fetchOrdersPage(
  status: SalesStatus,
  request: Omit<ListRequest<SalesFilters, SalesSort>, 'cursor'>,
  perPage: number,
  signal?: AbortSignal,
): Promise<ListPage<SalesOrderRow>> {
  const data = unwrap(
    await api.GET('/sales/history-all-currency', {
      params: {
        query: {
          status,
          page: request.page,
          per_page: perPage,
          ...salesQuery(request.filters),
          ...(request.sort ? { sort: request.sort } : {}),
        },
      },
      signal,
    }),
    SALES_LOAD_ERROR,
  );
  return fromPageMeta(data.orders, data.meta);
}

export async function loadOverview(signal?: AbortSignal): Promise<SalesCurrencyOverview[]> {
  return unwrap(await api.GET('/sales/overview-all-currency', { signal }), SALES_LOAD_ERROR).currencies;
}

export async function exportOrders(
  status: SalesStatus,
  filters: SalesFilters,
  sort: SalesSort | null,
  format: ExportFormat,
  signal?: AbortSignal,
): Promise<SavedFile> {
  const data = unwrap(
    await api.GET('/sales/export-reports', {
      params: { query: { status, format, ...salesQuery(filters), ...(sort ? { sort } : {}) } },
      signal,
    }),
  );
  return { name: data.name, file: blobOf(data) };
}

export async function loadOrder(id: number, signal?: AbortSignal): Promise<SalesOrder> {
  return unwrap(
    await api.GET('/sales/order-details', { params: { query: { booking_id: id } }, signal }),
    SALES_LOAD_ERROR,
  );
}

export async function loadOrderLogs(id: number, signal?: AbortSignal): Promise<OrderLogs> {
  const [order, inventory] = await Promise.all([
    api.GET('/sales/order-logs', { params: { query: { booking_id: id, per_page: 100 } }, signal }),
    api.GET('/sales/inventory-logs', { params: { query: { booking_id: id, per_page: 100 } }, signal }),
  ]);
  return {
    order: unwrap(order, SALES_LOAD_ERROR).logs,
    inventory: unwrap(inventory, SALES_LOAD_ERROR).logs,
  };
}

export async function loadTicketTypes(signal?: AbortSignal): Promise<SalesTicketType[]> {
  return unwrap(await api.GET('/sales/ticket-types', { signal }), SALES_LOAD_ERROR);
}

const actionKeys = requestKeys();
const deliveryKeys = requestKeys();

export async function sendOrderAction(id: number, action: 'accept' | 'decline', reason: string): Promise<SalesOrder> {
  const body = action === 'decline' ? { booking_id: id, action, reason } : { booking_id: id, action };
  const order = unwrap(
    await api.POST('/sales/order-action', { params: { header: { 'Idempotency-Key': actionKeys.keyFor(body) } }, body }),
  );
  actionKeys.succeeded();
  return order;
}

export type BulkOrderAction = 'accept' | 'decline';
/** What POST /sales/order-actions answers: per order, whether it went through and why not. */
export type BulkOrderResults = DataOf<'/sales/order-actions', 'post'> & { message: string };
const bulkKeys = requestKeys();

export async function sendBulkOrderAction(
  ids: readonly number[],
  action: BulkOrderAction,
  reason: string,
): Promise<BulkOrderResults> {
  const body = action === 'decline' ? { booking_ids: [...ids], action, reason } : { booking_ids: [...ids], action };
  const answer = await api.POST('/sales/order-actions', {
    params: { header: { 'Idempotency-Key': bulkKeys.keyFor(body) } },
    body,
  });
  const data = unwrap(answer);
  bulkKeys.succeeded();
  return { ...data, message: answer.data?.message ?? '' };
}

export async function saveOrderNotes(id: number, notes: string): Promise<SalesOrder> {
  unwrap(await api.POST('/sales/save-notes', { body: { booking_id: id, notes } }));
  return loadOrder(id);
}

export async function updateOrderTicketType(id: number, ticketTypeId: number): Promise<SalesOrder> {
  unwrap(
    await api.POST('/sales/update-ticket-type', {
      body: { booking_id: id, ticket_type_id: ticketTypeId as components['schemas']['TicketTypeId'] },
    }),
  );
  return loadOrder(id);
}

export async function deleteOrderTicket(id: number, ticketNo: number): Promise<SalesOrder> {
  unwrap(await api.POST('/sales/delete-ticket', { body: { booking_id: id, ticket_no: ticketNo } }));
  return loadOrder(id);
}

/** The form of a delivery and the upload it goes to. */
function deliveryForm(delivery: Delivery) {
  const form = new FormData();
  if ('ticketNos' in delivery && delivery.ticketNos?.length) form.append('ticket_nos', delivery.ticketNos.join(','));
  switch (delivery.kind) {
    case 'pdf':
      form.append('mode', delivery.mode);
      for (const f of delivery.files) form.append('files', f);
      return { path: '/api/sales/upload-tickets' as const, form };
    case 'mobile':
      form.append('transfer_links', delivery.links.join('\n'));
      // one link the club issued for the whole booking delivers every ticket
      if (delivery.wholeOrder) form.append('link_mode', 'whole_order');
      return { path: '/api/sales/upload-mobile-ticket' as const, form };
    case 'wallet':
      for (const f of delivery.files) form.append('files', f);
      return { path: '/api/sales/upload-mobile-ticket' as const, form };
    case 'courier':
      form.append('courier', delivery.courier.trim());
      form.append('tracking_number', delivery.trackingNumber.trim());
      if (delivery.proof) form.append('proof', delivery.proof);
      return { path: '/api/sales/paper-ticket-upload' as const, form };
    case 'instructions':
      form.append('file', delivery.file);
      return { path: '/api/sales/upload-instruction-file' as const, form };
  }
}

/** Sends a delivery with its upload progress; the answer is the order as it now is. */
export async function deliverOrder(
  id: number,
  delivery: Delivery,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<SalesOrder> {
  const { path, form } = deliveryForm(delivery);
  await upload(path, form, {
    query: { booking_id: id },
    idempotencyKey: deliveryKeys.keyFor({ id, delivery }),
    onProgress: ({ fraction }) => onProgress(fraction),
    signal,
  });
  deliveryKeys.succeeded();
  return loadOrder(id, signal);
}

export async function downloadOrderTickets(id: number, signal?: AbortSignal): Promise<SavedFile> {
  const data = unwrap(
    await api.GET('/sales/download-all-tickets/{booking_id}', { params: { path: { booking_id: id } }, signal }),
  );
  return { name: data.name, file: blobOf(data) };
}
