import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { nextOrderStatus } from '../../machines/order.machine';
import type { components } from '../../openapi/schema';
import type { FieldError } from '../contract/contract';
import type { Db } from '../db/database';
import { HttpError, MESSAGES } from '../http/errors';
import { pdfText } from '../http/file-checks';
import { nameForKind } from '../http/file-names';
import type { StoredFile } from '../http/multipart';
import type { Payments } from '../payments/port';
import {
  applyOrderEvent,
  type DeliveryMethod,
  type DeliveryType,
  deliveriesOf,
  methodOf,
  type OrderRow,
  refusal,
  type SalesOrder,
  ticketTypeName,
  UPLOAD_CALL,
  type Who,
  writeLog,
} from './sales-orders';

type Order = NonNullable<OrderRow>;
const countsOf = (o: Order) => ({ tickets: Number(o.quantity), delivered: Number(o.delivered) });
const invalid = (errors: FieldError[], message: string = MESSAGES.validation) => new HttpError(422, message, errors);

// ---------------------------------------------------------------------------------------------------------
// Checks of what a seller uploads

/**
 * A file name with a path (`../x.pdf`, `a/b.pdf`, `C:\x.pdf`) or a control character is refused: the name is
 * only shown back, but a client that sends one is not a browser's file picker.
 */
export function badFileName(name: string): string | null {
  if (/[/\\]/.test(name)) return 'The file name must not contain a path.';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The file name must not contain control characters.';
  if (name === '.' || name === '..') return 'The file name is not valid.';
  return null;
}

/** The pages of a PDF (its page objects); 0 when they are not readable without decompressing object streams. */
export function pdfPageCount(bytes: Buffer): number {
  return (pdfText(bytes).match(/\/Type\s*\/Page(?![A-Za-z])/g) ?? []).length;
}

function checkNames(files: StoredFile[], field: string) {
  const errors: FieldError[] = [];
  files.forEach((f, i) => {
    const problem = badFileName(f.clientName);
    if (problem)
      errors.push({
        path: files.length > 1 || field === 'files' ? `/body/${field}/${i}` : `/body/${field}`,
        message: problem,
      });
  });
  if (errors.length > 0) throw invalid(errors, errors[0]?.message);
}

/** The tickets an upload delivers: `ticket_nos` as given (each 1 to the quantity, once), else the undelivered ones. */
function targetsOf(o: Order, given: string | undefined, delivered: Set<number>): number[] {
  const quantity = Number(o.quantity);
  if (given === undefined || given === '') {
    return Array.from({ length: quantity }, (_, i) => i + 1).filter((n) => !delivered.has(n));
  }
  const list = given.split(',').map(Number);
  const bad = list.find((n) => n < 1 || n > quantity);
  if (bad !== undefined)
    throw invalid([{ path: '/body/ticket_nos', message: `must name tickets 1 to ${quantity} (got ${bad})` }]);
  if (new Set(list).size !== list.length)
    throw invalid([{ path: '/body/ticket_nos', message: 'must name each ticket once' }]);
  return list;
}

// ---------------------------------------------------------------------------------------------------------
// Delivering

export interface NewDelivery {
  ticket_no: number;
  type: DeliveryType;
  file_id?: string | null;
  page?: number | null;
  transfer_link?: string | null;
  courier?: string | null;
  tracking_number?: string | null;
}

/** The order must be delivered `method`'s way; a pending or closed order is refused by the lifecycle. */
function checkDeliverable(o: Order, method: DeliveryMethod) {
  const event = { type: 'ticket.delivered' as const, by: 'seller' as const, delivered: Number(o.delivered) + 1 };
  if (!nextOrderStatus(o.status, countsOf(o), event)) throw refusal(o.status, event);
  const own = methodOf(o.ticket_type_id);
  if (own !== method) {
    throw new HttpError(
      409,
      `This order's tickets are ${ticketTypeName(o.ticket_type_id)}s: deliver them with ${UPLOAD_CALL[own]}.`,
    );
  }
}

/**
 * Writes one delivery row per ticket (unique by order and ticket: a ticket delivered meanwhile makes the whole
 * call 409) and a log row each, then tells the lifecycle the new count: the last ticket moves the order to
 * delivered (and the buyer is notified).
 */
async function deliver(db: Db, o: Order, rows: NewDelivery[], who: Who, now: Date, payments: Payments | null) {
  const at = now.toISOString();
  for (const r of rows) {
    const inserted = await db
      .insertInto('order_deliveries')
      .values({
        order_id: o.id,
        ticket_no: r.ticket_no,
        type: r.type,
        file_id: r.file_id ?? null,
        page: r.page ?? null,
        transfer_link: r.transfer_link ?? null,
        courier: r.courier ?? null,
        tracking_number: r.tracking_number ?? null,
        user_id: who.userId,
        delivered_at: at,
      })
      .onConflict((oc) => oc.columns(['order_id', 'ticket_no']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new HttpError(409, `Ticket ${r.ticket_no} is already delivered: remove it first.`);
  }
  const counted = await db
    .selectFrom('order_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', o.id)
    .executeTakeFirstOrThrow();
  const detail = `Ticket${rows.length === 1 ? '' : 's'} ${rows.map((r) => r.ticket_no).join(', ')} (${rows[0]?.type ?? ''})`;
  await applyOrderEvent(
    db,
    o,
    { type: 'ticket.delivered', by: 'seller', delivered: Number(counted.n) },
    who,
    now,
    payments,
    { detail },
  );
}

async function deliveredSet(db: Db, o: Order) {
  return new Set((await deliveriesOf(db, o.id)).map((d) => d.ticket_no));
}

function alreadyDelivered(targets: number[], delivered: Set<number>) {
  const done = targets.find((n) => delivered.has(n));
  if (done !== undefined) throw new HttpError(409, `Ticket ${done} is already delivered: remove it first.`);
}

export async function deliverPdfs(
  db: Db,
  o: Order,
  input: { mode?: 'per_ticket' | 'split'; ticket_nos?: string; files: StoredFile[] },
  who: Who,
  now: Date,
) {
  checkNames(input.files, 'files');
  checkDeliverable(o, 'pdf');
  const delivered = await deliveredSet(db, o);
  const targets = targetsOf(o, input.ticket_nos, delivered);
  alreadyDelivered(targets, delivered);
  if (targets.length === 0) throw new HttpError(409, 'Every ticket of this order is delivered.');
  let rows: NewDelivery[];
  if (input.mode === 'split') {
    const [file] = input.files;
    if (!file || input.files.length !== 1) {
      throw invalid([{ path: '/body/files', message: 'must be exactly one PDF to split by page' }]);
    }
    const pages = pdfPageCount(readFileSync(file.path));
    if (pages < targets.length) {
      const message = `The PDF has ${pages} pages for ${targets.length} tickets.`;
      throw invalid([{ path: '/body/files/0', message }], message);
    }
    rows = targets.map((n, i) => ({ ticket_no: n, type: 'pdf_page', file_id: file.id, page: i + 1 }));
  } else {
    if (input.files.length > targets.length) {
      throw invalid([
        { path: '/body/files', message: `must be at most ${targets.length} file(s), one per ticket to deliver` },
      ]);
    }
    rows = input.files.map((f, i) => ({ ticket_no: targets[i] as number, type: 'pdf', file_id: f.id }));
  }
  await deliver(db, o, rows, who, now, null);
}

export async function deliverPaper(
  db: Db,
  o: Order,
  input: { courier: string; tracking_number: string; ticket_nos?: string; proof?: StoredFile },
  who: Who,
  now: Date,
) {
  if (input.proof) {
    checkNames([input.proof], 'proof');
  }
  const courier = input.courier.trim();
  const tracking = input.tracking_number.trim();
  if (!courier) throw invalid([{ path: '/body/courier', message: 'must not be empty' }]);
  checkDeliverable(o, 'courier');
  const delivered = await deliveredSet(db, o);
  const targets = targetsOf(o, input.ticket_nos, delivered);
  alreadyDelivered(targets, delivered);
  if (targets.length === 0) throw new HttpError(409, 'Every ticket of this order is delivered.');
  await deliver(
    db,
    o,
    targets.map((n) => ({
      ticket_no: n,
      type: 'courier',
      courier,
      tracking_number: tracking,
      file_id: input.proof?.id ?? null,
    })),
    who,
    now,
    null,
  );
}

async function isWalletPass(path: string): Promise<boolean> {
  try {
    const zip = await JSZip.loadAsync(readFileSync(path));
    return zip.file('pass.json') !== null;
  } catch {
    return false;
  }
}

export async function deliverMobile(
  db: Db,
  o: Order,
  input: { transfer_links?: string; ticket_nos?: string; files?: StoredFile[] },
  who: Who,
  now: Date,
) {
  const files = input.files ?? [];
  const links = (input.transfer_links ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (files.length > 0 && links.length > 0) {
    throw invalid([{ path: '/body/transfer_links', message: 'give transfer links or wallet passes, not both' }]);
  }
  if (files.length === 0 && links.length === 0) {
    throw invalid([{ path: '/body/transfer_links', message: 'give one transfer link per ticket, or wallet passes' }]);
  }
  checkNames(files, 'files');
  for (const [i, f] of files.entries()) {
    if (!(await isWalletPass(f.path))) {
      throw invalid([{ path: `/body/files/${i}`, message: 'is not a wallet pass (.pkpass with pass.json)' }]);
    }
  }
  links.forEach((link, i) => {
    let url: URL | null = null;
    try {
      url = new URL(link);
    } catch {
      url = null;
    }
    if (url?.protocol !== 'https:' || link.length > 2000) {
      throw invalid([
        { path: '/body/transfer_links', message: `line ${i + 1} must be an https link of at most 2000 characters` },
      ]);
    }
  });
  checkDeliverable(o, 'mobile');
  const delivered = await deliveredSet(db, o);
  const targets = targetsOf(o, input.ticket_nos, delivered);
  alreadyDelivered(targets, delivered);
  if (targets.length === 0) throw new HttpError(409, 'Every ticket of this order is delivered.');
  const given = files.length > 0 ? files.length : links.length;
  if (given > targets.length) {
    throw invalid([
      {
        path: files.length > 0 ? '/body/files' : '/body/transfer_links',
        message: `must be at most ${targets.length}, one per ticket to deliver`,
      },
    ]);
  }
  const rows: NewDelivery[] =
    files.length > 0
      ? files.map((f, i) => ({ ticket_no: targets[i] as number, type: 'wallet_pass', file_id: f.id }))
      : links.map((l, i) => ({ ticket_no: targets[i] as number, type: 'transfer_link', transfer_link: l }));
  await deliver(db, o, rows, who, now, null);
}

/**
 * The instruction file replaces the order's previous one; for an order collected at the venue it delivers
 * every ticket still undelivered.
 */
export async function uploadInstructions(db: Db, o: Order, file: StoredFile, who: Who, now: Date) {
  checkNames([file], 'file');
  if (o.status !== 'confirmed' && o.status !== 'delivered') {
    throw new HttpError(409, `This order is ${o.status}: its instruction file cannot change.`);
  }
  await db.updateTable('orders').set({ instruction_file_id: file.id }).where('id', '=', o.id).execute();
  await writeLog(
    db,
    { orderId: o.id, action: 'instruction_uploaded', from: o.status, to: o.status, detail: file.originalName, who },
    now,
  );
  if (methodOf(o.ticket_type_id) === 'collection' && o.status === 'confirmed') {
    const delivered = await deliveredSet(db, o);
    const targets = targetsOf(o, undefined, delivered);
    if (targets.length > 0) {
      await deliver(
        db,
        o,
        targets.map((n) => ({ ticket_no: n, type: 'collection', file_id: file.id })),
        who,
        now,
        null,
      );
    }
  }
}

/** Removes one ticket's delivery; a delivered order goes back to confirmed through the lifecycle. */
export async function removeDelivery(db: Db, o: Order, ticketNo: number, who: Who, now: Date) {
  const event = {
    type: 'ticket.removed' as const,
    by: 'seller' as const,
    delivered: Math.max(0, Number(o.delivered) - 1),
  };
  if (!nextOrderStatus(o.status, countsOf(o), event)) throw refusal(o.status, event);
  if (ticketNo > Number(o.quantity)) {
    throw invalid([{ path: '/body/ticket_no', message: `must be at most ${o.quantity} (the order's tickets)` }]);
  }
  const removed = await db
    .deleteFrom('order_deliveries')
    .where('order_id', '=', o.id)
    .where('ticket_no', '=', ticketNo)
    .returning(['type'])
    .executeTakeFirst();
  if (!removed) throw new HttpError(409, 'This ticket has not been delivered.');
  const counted = await db
    .selectFrom('order_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', o.id)
    .executeTakeFirstOrThrow();
  await applyOrderEvent(db, o, { ...event, delivered: Number(counted.n) }, who, now, null, {
    detail: `Ticket ${ticketNo} (${removed.type})`,
  });
}

export async function changeTicketType(db: Db, o: Order, ticketTypeId: number, who: Who, now: Date) {
  if (o.status !== 'pending' && o.status !== 'confirmed') {
    throw new HttpError(409, `This order is ${o.status}: its ticket type cannot change.`);
  }
  if (Number(o.delivered) > 0)
    throw new HttpError(409, 'Remove the delivered tickets before changing the ticket type.');
  if (o.ticket_type_id === ticketTypeId) return;
  await db.updateTable('orders').set({ ticket_type_id: ticketTypeId }).where('id', '=', o.id).execute();
  await writeLog(
    db,
    {
      orderId: o.id,
      action: 'ticket_type_changed',
      from: o.status,
      to: o.status,
      detail: `${ticketTypeName(o.ticket_type_id)} → ${ticketTypeName(ticketTypeId)}`,
      who,
    },
    now,
  );
}

// ---------------------------------------------------------------------------------------------------------
// The zip of an order's tickets (seller's team and buyer)

/** A file's name inside the zip: named by its kind, in any script, with nothing an unzip tool reads as a path. */
const zipName = (name: string, kind: string) => nameForKind(name, kind).replace(/[:*?"<>|]/g, '_');

export async function ticketZip(db: Db, dataDir: string, o: Order, none: string) {
  const deliveries = await deliveriesOf(db, o.id);
  if (deliveries.length === 0) throw new HttpError(409, none);
  const fileIds = [...new Set(deliveries.flatMap((d) => (d.file_id ? [d.file_id] : [])))];
  if (o.instruction_file_id && !fileIds.includes(o.instruction_file_id)) fileIds.push(o.instruction_file_id);
  const files =
    fileIds.length === 0
      ? []
      : await db.selectFrom('files').select(['id', 'original_name', 'kind']).where('id', 'in', fileIds).execute();
  const zip = new JSZip();
  const nameOf = new Map<string, string>();
  let count = 0;
  for (const f of files) {
    const tickets = deliveries.filter((d) => d.file_id === f.id).map((d) => d.ticket_no);
    const prefix =
      f.id === o.instruction_file_id && tickets.length === 0 ? 'instructions' : `ticket-${tickets.join('-')}`;
    const name = `${prefix}-${zipName(f.original_name, f.kind)}`;
    nameOf.set(f.id, name);
    try {
      zip.file(name, readFileSync(join(dataDir, 'uploads', f.id)));
      count++;
    } catch {
      // a file missing on disk (a restored database without its uploads) is named in tickets.txt, not fatal
    }
  }
  const lines = [
    `Order ${o.booking_no}: ${o.match_name}, ${o.event_date} ${o.event_time}`,
    `${ticketTypeName(o.ticket_type_id)}, ${deliveries.length} of ${o.quantity} tickets delivered`,
    '',
    ...deliveries.map((d) => {
      const what =
        d.type === 'transfer_link'
          ? `transfer link ${d.transfer_link}`
          : d.type === 'courier'
            ? `sent by ${d.courier}, tracking number ${d.tracking_number}`
            : `${d.file_id ? (nameOf.get(d.file_id) ?? 'file') : 'file'}${d.page ? `, page ${d.page}` : ''}`;
      return `Ticket ${d.ticket_no}: ${what} (${d.delivered_at})`;
    }),
  ];
  zip.file('tickets.txt', `${lines.join('\r\n')}\r\n`);
  const content = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  return {
    name: `${o.booking_no}-tickets.zip`,
    mime: 'application/zip' as const,
    size: content.length,
    files: count,
    content_base64: content.toString('base64'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The buyer's view of a booking's delivery

export type BookingDelivery = components['schemas']['BookingDelivery'];

/** The delivery of the orders behind confirmed (or since cancelled) bookings, by booking id. */
export async function bookingDeliveries(
  db: Db,
  rows: ReadonlyArray<{ id: number; order_id: number | null }>,
): Promise<Map<number, BookingDelivery>> {
  const orderIds = rows.flatMap((r) => (r.order_id ? [r.order_id] : []));
  const out = new Map<number, BookingDelivery>();
  if (orderIds.length === 0) return out;
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'status', 'quantity', 'delivered', 'deliver_by', 'instruction_file_id'])
    .where('id', 'in', orderIds)
    .execute();
  const deliveries = await db
    .selectFrom('order_deliveries')
    .leftJoin('files', 'files.id', 'order_deliveries.file_id')
    .select([
      'order_deliveries.order_id',
      'order_deliveries.ticket_no',
      'order_deliveries.type',
      'order_deliveries.page',
      'order_deliveries.transfer_link',
      'order_deliveries.courier',
      'order_deliveries.tracking_number',
      'order_deliveries.delivered_at',
      'files.original_name',
    ])
    .where('order_deliveries.order_id', 'in', orderIds)
    .orderBy('order_deliveries.ticket_no')
    .execute();
  const instructionIds = orders.flatMap((o) => (o.instruction_file_id ? [o.instruction_file_id] : []));
  const instructions =
    instructionIds.length === 0
      ? []
      : await db.selectFrom('files').select(['id', 'original_name']).where('id', 'in', instructionIds).execute();
  for (const r of rows) {
    const o = orders.find((x) => x.id === r.order_id);
    if (!o) continue;
    const open = o.status === 'pending' || o.status === 'confirmed';
    const mine = o.status === 'cancelled' ? [] : deliveries.filter((d) => d.order_id === o.id);
    out.set(r.id, {
      order_status: o.status,
      quantity: Number(o.quantity),
      delivered: Number(o.delivered),
      deliver_by: open ? o.deliver_by : null,
      tickets: mine.map((d) => ({
        ticket_no: d.ticket_no,
        type: d.type,
        file_name: d.original_name ?? null,
        page: d.page,
        transfer_link: d.transfer_link,
        courier: d.courier,
        tracking_number: d.tracking_number,
        delivered_at: d.delivered_at,
      })),
      instruction_file_name: instructions.find((f) => f.id === o.instruction_file_id)?.original_name ?? null,
      download_available: mine.length > 0,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Exports

export const EXPORT_COLUMNS = [
  'Order number',
  'Status',
  'Order date',
  'Match',
  'Tournament',
  'Match date',
  'Match time',
  'Stadium',
  'City',
  'Category',
  'Block',
  'Row',
  'Seats',
  'Ticket type',
  'Quantity',
  'Delivered',
  'Currency',
  'Unit price',
  'Amount',
  'Deliver by',
] as const satisfies readonly components['schemas']['SalesExportColumn'][];

/** Text a spreadsheet would run as a formula gets a leading apostrophe (OWASP's CSV injection advice). */
export const neutralise = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const DECIMALS: Record<string, number> = { GBP: 2, EUR: 2, USD: 2, AED: 2 };
const major = (minor: number, currency: string) => minor / 10 ** (DECIMALS[currency] ?? 2);

export type ExportCell = string | number | Date | null;

/** A column of an exported table: its header, how its cells are written, its width in the spreadsheet. */
export interface ExportColumn {
  header: string;
  kind: 'text' | 'int' | 'money' | 'date' | 'datetime';
  width?: number;
}

const NUM_FMT: Partial<Record<ExportColumn['kind'], string>> = {
  datetime: 'yyyy-mm-dd hh:mm',
  date: 'yyyy-mm-dd',
  money: '#,##0.00',
};

function cellsOf(o: SalesOrder): ExportCell[] {
  return [
    o.booking_no,
    o.status_label,
    new Date(o.created_at),
    o.match_name,
    o.tournament,
    new Date(`${o.match_date}T00:00:00.000Z`),
    o.match_time,
    o.stadium_name,
    o.city_name,
    o.category,
    o.ticket_block,
    o.row,
    o.seats,
    o.ticket_type,
    o.quantity,
    o.delivered,
    o.currency,
    major(o.unit_price, o.currency),
    major(o.amount, o.currency),
    o.deliver_by ? new Date(o.deliver_by) : null,
  ];
}

const csvCell = (c: ExportCell, column: ExportColumn): string => {
  if (c === null) return '';
  let text: string;
  if (c instanceof Date) text = column.kind === 'date' ? c.toISOString().slice(0, 10) : c.toISOString();
  else if (typeof c === 'number') text = column.kind === 'money' ? c.toFixed(2) : String(c);
  else text = neutralise(c);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * One table as a file, the one writer of every export (sales, reports, payouts): CSV (UTF-8 with a BOM, RFC 4180)
 * or XLSX (exceljs' streaming writer: numbers as numbers, dates as dates); a text a spreadsheet would run as a
 * formula gets a leading apostrophe in both. `name` is the file's name without its extension.
 */
export async function tableFile(spec: {
  name: string;
  sheet: string;
  columns: readonly ExportColumn[];
  rows: readonly ExportCell[][];
  format: 'xlsx' | 'csv';
  now: Date;
}) {
  const { columns, rows } = spec;
  if (spec.format === 'csv') {
    const lines = [
      columns.map((c) => c.header).join(','),
      ...rows.map((r) => r.map((c, i) => csvCell(c, columns[i] as ExportColumn)).join(',')),
    ];
    const content = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
    return { name: `${spec.name}.csv`, mime: 'text/csv', content };
  }
  // the streaming writer (inline strings, rows committed as they go): a 10,000-row export in a fraction of the
  // in-memory workbook's time and memory
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  book.created = spec.now;
  const sheet = book.addWorksheet(spec.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => {
    const numFmt = NUM_FMT[c.kind];
    return { header: c.header, width: c.width ?? 16, style: numFmt ? { numFmt } : {} };
  });
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) {
    sheet.addRow(r.map((c) => (typeof c === 'string' ? neutralise(c) : c))).commit();
  }
  sheet.commit();
  await book.commit();
  return {
    name: `${spec.name}.xlsx`,
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    content: Buffer.concat(chunks),
  };
}

const SALES_KINDS: Partial<Record<number, ExportColumn['kind']>> = {
  2: 'datetime',
  5: 'date',
  14: 'int',
  15: 'int',
  17: 'money',
  18: 'money',
  19: 'datetime',
};

export async function exportFile(rows: SalesOrder[], format: 'xlsx' | 'csv', status: string, now: Date) {
  return tableFile({
    name: `sales-${status}-${now.toISOString().slice(0, 10)}`,
    sheet: 'Sales',
    columns: EXPORT_COLUMNS.map((header, i) => ({ header, kind: SALES_KINDS[i] ?? 'text', width: i === 3 ? 40 : 16 })),
    rows: rows.map(cellsOf),
    format,
    now,
  });
}
