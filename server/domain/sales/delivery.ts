import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { nextOrderStatus } from '../../../machines/order.machine';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { HttpError, MESSAGES } from '../../http/errors';
import type { StoredFile } from '../../http/multipart';
import type { Payments } from '../../payments/port';
import { pdfPageCount, recordDeliveryProof } from '../disputes/proofs';
import { deadlinesFor } from './deadlines';
import { deliveriesOf } from './details';
import { applyOrderEvent, refusal } from './lifecycle';
import { type Who, writeLog } from './logs';
import { type DeliveryMethod, type DeliveryType, methodOf, type OrderRow, ticketTypeName, UPLOAD_CALL } from './orders';
import { transferSent } from './transfers';

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
async function deliver(
  db: Db,
  o: Order,
  rows: NewDelivery[],
  who: Who,
  now: Date,
  payments: Payments | null,
  files: readonly StoredFile[] = [],
) {
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
  // the proof vault: what was delivered, in this transaction (docs/decisions/disputes.md)
  await recordDeliveryProof(db, o.id, rows, files, who.userId, at);
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
  await deliver(db, o, rows, who, now, null, input.files);
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
    input.proof ? [input.proof] : [],
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
  input: {
    transfer_links?: string;
    link_mode?: 'per_ticket' | 'whole_order';
    ticket_nos?: string;
    files?: StoredFile[];
  },
  who: Who,
  now: Date,
) {
  const files = input.files ?? [];
  const wholeOrder = input.link_mode === 'whole_order';
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
  if (wholeOrder && (files.length > 0 || links.length !== 1)) {
    const message = 'One link for the whole order: give exactly one transfer link.';
    throw invalid([{ path: '/body/transfer_links', message: 'must be exactly one link for the whole order' }], message);
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
  const given = files.length > 0 ? files.length : wholeOrder ? 1 : links.length;
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
      : wholeOrder
        ? targets.map((n) => ({ ticket_no: n, type: 'transfer_link', transfer_link: links[0] as string }))
        : links.map((l, i) => ({ ticket_no: targets[i] as number, type: 'transfer_link', transfer_link: l }));
  if (links.length > 0) await transferSent(db, o.id);
  await deliver(db, o, rows, who, now, null, files);
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
        [file],
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
  // the deadline follows the type: a mobile order waits for the club's transfer window, another does not
  const deadlines = deadlinesFor(o.status, { ...o, ticket_type_id: ticketTypeId });
  await db
    .updateTable('orders')
    .set({ ticket_type_id: ticketTypeId, accept_by: deadlines.accept_by, deliver_by: deadlines.deliver_by })
    .where('id', '=', o.id)
    .execute();
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
