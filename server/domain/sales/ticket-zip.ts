import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { nameForKind } from '../../http/file-names';
import { deliveriesOf } from './details';
import { type OrderRow, ticketTypeName } from './orders';

type Order = NonNullable<OrderRow>;

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
