import { readFileSync } from 'node:fs';
import type { Db } from '../../db/database';
import { pdfText } from '../../http/file-checks';
import type { StoredFile } from '../../http/multipart';

// ---------------------------------------------------------------------------------------------------------
// The proof vault: what each delivery leaves behind, written in the delivery's own transaction
// (docs/decisions/disputes.md)

/** The pages of a PDF (its page objects); 0 when they are not readable without decompressing object streams. */
export function pdfPageCount(bytes: Buffer): number {
  return (pdfText(bytes).match(/\/Type\s*\/Page(?![A-Za-z])/g) ?? []).length;
}

export type ProofKind =
  | 'pdf'
  | 'pdf_page'
  | 'wallet_pass'
  | 'transfer_link'
  | 'courier'
  | 'collection'
  | 'transfer_accepted'
  | 'download'
  | 'order_log';

export interface DeliveredTicket {
  ticket_no: number;
  type: string;
  file_id?: string | null;
  transfer_link?: string | null;
  courier?: string | null;
  tracking_number?: string | null;
}

/**
 * One proof row per thing delivered (a file, a link, a parcel) with the tickets it carried: a file's sha256 from
 * its upload and, for a PDF, its pages counted from its bytes.
 */
export async function recordDeliveryProof(
  db: Db,
  orderId: number,
  rows: readonly DeliveredTicket[],
  files: readonly StoredFile[],
  userId: number | null,
  at: string,
) {
  const groups = new Map<string, DeliveredTicket[]>();
  for (const r of rows) {
    const key = [r.type, r.file_id ?? '', r.transfer_link ?? '', r.courier ?? '', r.tracking_number ?? ''].join('\n');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const first = group[0] as DeliveredTicket;
    const file = first.file_id ? files.find((f) => f.id === first.file_id) : undefined;
    const stored =
      first.file_id && !file
        ? await db.selectFrom('files').select(['sha256', 'kind']).where('id', '=', first.file_id).executeTakeFirst()
        : undefined;
    const kind = file?.kind ?? stored?.kind;
    let pages: number | null = null;
    if (file && kind === 'pdf') {
      try {
        pages = pdfPageCount(readFileSync(file.path));
      } catch {
        pages = null;
      }
    }
    const reference =
      first.type === 'courier'
        ? `${first.courier ?? ''} ${first.tracking_number ?? ''}`.trim()
        : (first.transfer_link ?? null);
    await db
      .insertInto('delivery_proofs')
      .values({
        order_id: orderId,
        kind: first.type,
        ticket_nos: group.map((g) => g.ticket_no).join(','),
        file_id: first.file_id ?? null,
        sha256: file?.sha256 ?? stored?.sha256 ?? null,
        pages,
        reference,
        user_id: userId,
        recorded_at: at,
      })
      .execute();
  }
}

/** A proof that is about the whole order: the buyer's download of the tickets, the buyer's acceptance. */
export async function recordOrderProof(
  db: Db,
  orderId: number,
  kind: 'download' | 'transfer_accepted',
  userId: number | null,
  at: string,
  reference: string | null = null,
) {
  await db
    .insertInto('delivery_proofs')
    .values({
      order_id: orderId,
      kind,
      ticket_nos: null,
      file_id: null,
      sha256: null,
      pages: null,
      reference,
      user_id: userId,
      recorded_at: at,
    })
    .execute();
}

export interface Proof {
  id: number;
  kind: ProofKind;
  ticket_nos: string | null;
  file_id: string | null;
  sha256: string | null;
  pages: number | null;
  reference: string | null;
  user_id: number | null;
  source: 'recorded' | 'backfill';
  recorded_at: string;
}

/** An order's proof, oldest first. */
export async function proofsOf(db: Db, orderId: number): Promise<Proof[]> {
  const rows = await db
    .selectFrom('delivery_proofs')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind as ProofKind,
    ticket_nos: r.ticket_nos,
    file_id: r.file_id,
    sha256: r.sha256,
    pages: r.pages === null ? null : Number(r.pages),
    reference: r.reference,
    user_id: r.user_id === null ? null : Number(r.user_id),
    source: r.source === 'backfill' ? 'backfill' : 'recorded',
    recorded_at: r.recorded_at,
  }));
}
