import type { components } from '../../openapi/schema';

export type PageMeta = components['schemas']['PageMeta'];

/** The last row a page showed, by its position in a list sorted newest first: where the next page starts. */
export interface PageKey {
  created_at: string;
  id: number;
}

/**
 * What the contract's `page`, `per_page` and `cursor` give (validated, defaults applied): a limit, and either
 * an offset (a page asked for by number) or the key of the row the page starts after (a cursor).
 */
export interface Page {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
  after?: PageKey;
}

/** The page numbers the contract accepts; a cursor carries its page's number, within the same bounds. */
const MAX_PAGE = 100_000;
const MAX_ID = 2 ** 31 - 1;

/**
 * A cursor is the next page's number and the key of the last row shown, `<page>|<created_at>|<id>` in
 * base64url: opaque to the client, readable by any server process (it holds no state).
 */
export function encodeCursor(page: number, key: PageKey): string {
  return Buffer.from(`${page}|${key.created_at}|${key.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { page: number; after: PageKey } | null {
  const match = /^(\d{1,6})\|([0-9T:.+Z-]{10,32})\|(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const page = Number(match[1]);
  const id = Number(match[3]);
  // ids are the database's integer keys (1 to 2^31-1 on Postgres): a larger one is no row's
  if (page < 2 || page > MAX_PAGE || id < 1 || id > MAX_ID) return null;
  return { page, after: { created_at: match[2] as string, id } };
}

/** A cursor the client sent that this server did not make, or that does not read. */
export class BadCursor extends Error {}

export function pageOf(query: { page?: number; per_page?: number; cursor?: string }): Page {
  const perPage = query.per_page ?? 10;
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor);
    if (!decoded) throw new BadCursor('is not a cursor this list gave');
    return { page: decoded.page, perPage, limit: perPage, offset: 0, after: decoded.after };
  }
  const page = query.page ?? 1;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/**
 * The meta of a page; last_page is at least 1, so an empty list still has a page 1. `next` is the key of the
 * page's last row when more rows follow: `next_cursor` then reads the next page from there.
 */
export function metaOf(page: Page, total: number, next: PageKey | null = null): PageMeta {
  return {
    current_page: page.page,
    last_page: Math.max(1, Math.ceil(total / page.perPage)),
    per_page: page.perPage,
    total,
    next_cursor: next && page.page < MAX_PAGE ? encodeCursor(page.page + 1, next) : null,
  };
}
