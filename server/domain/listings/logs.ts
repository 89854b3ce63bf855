import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { PageMeta } from '../paging';
import { BadListCursor } from './queries';
import { type Actor, type ListingLog, type LogAction, notFound } from './rows';

// A listing's log: the rows each change writes, and the pages of it a seller reads.

const iso = (d: Date) => d.toISOString();

export interface LogRow {
  listing_id: number;
  action: LogAction;
  field?: string | null;
  old_value?: string | null;
  new_value?: string | null;
}

export async function writeLogs(db: Db, actor: Actor, rows: LogRow[], now: Date, changeId: string | null = null) {
  const at = iso(now);
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('listing_logs')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          listing_id: r.listing_id,
          seller_id: actor.sellerId,
          user_id: actor.userId,
          action: r.action,
          field: r.field ?? null,
          old_value: r.old_value ?? null,
          new_value: r.new_value ?? null,
          change_id: changeId,
          created_at: at,
        })),
      )
      .execute();
  }
}

export async function logPage(
  db: Db,
  sellerId: number,
  ticketId: number | undefined,
  paging: { page?: number; per_page?: number; cursor?: string },
): Promise<{ logs: ListingLog[]; meta: PageMeta }> {
  if (ticketId !== undefined) {
    // a deleted listing's log stays readable by its seller
    const owned = await db
      .selectFrom('listings')
      .select('id')
      .where('id', '=', ticketId)
      .where('seller_id', '=', sellerId)
      .executeTakeFirst();
    if (!owned) throw notFound();
  }
  const perPage = paging.per_page ?? 50;
  let q = db.selectFrom('listing_logs').innerJoin('users', 'users.id', 'listing_logs.user_id');
  q = ticketId !== undefined ? q.where('listing_logs.listing_id', '=', ticketId) : q;
  q = q.where('listing_logs.seller_id', '=', sellerId);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let page = paging.page ?? 1;
  let rowsQuery = q.select([
    'listing_logs.id',
    'listing_logs.listing_id',
    'listing_logs.action',
    'listing_logs.field',
    'listing_logs.old_value',
    'listing_logs.new_value',
    'listing_logs.user_id',
    'users.first_name',
    'users.last_name',
    'listing_logs.created_at',
  ]);
  if (paging.cursor !== undefined) {
    const match = /^(\d{1,6})\|([0-9T:.Z-]{10,32})\|(\d{1,10})$/.exec(
      Buffer.from(paging.cursor, 'base64url').toString('utf8'),
    );
    const id = Number(match?.[3]);
    page = Number(match?.[1]);
    if (!match || page < 2 || page > 100_000 || id < 1 || id > 2 ** 31 - 1) {
      throw new BadListCursor('is not a cursor this list gave');
    }
    rowsQuery = rowsQuery.where(
      sql<SqlBool>`(listing_logs.created_at, listing_logs.id) < (${match[2] as string}, ${id})`,
    );
  } else rowsQuery = rowsQuery.offset((page - 1) * perPage);
  const rows = await rowsQuery
    .orderBy('listing_logs.created_at', 'desc')
    .orderBy('listing_logs.id', 'desc')
    .limit(perPage)
    .execute();
  const last = rows.at(-1);
  const more = last !== undefined && rows.length === perPage && page * perPage < total;
  return {
    logs: rows.map((r) => ({
      log_id: r.id,
      ticket_id: r.listing_id,
      action: r.action as LogAction,
      field: r.field,
      old_value: r.old_value,
      new_value: r.new_value,
      user_id: r.user_id,
      user_name: `${r.first_name} ${r.last_name}`.trim(),
      created_at: r.created_at,
    })),
    meta: {
      current_page: page,
      last_page: Math.max(1, Math.ceil(total / perPage)),
      per_page: perPage,
      total,
      next_cursor:
        more && last ? Buffer.from(`${page + 1}|${last.created_at}|${last.id}`, 'utf8').toString('base64url') : null,
    },
  };
}
