import type { components } from '../../openapi/schema';

export type PageMeta = components['schemas']['PageMeta'];

/** What the contract's `page` and `per_page` give (validated, defaults applied), as a limit and an offset. */
export interface Page {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

export function pageOf(query: { page?: number; per_page?: number }): Page {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 10;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/** The meta of a page; last_page is at least 1, so an empty list still has a page 1. */
export function metaOf(page: Page, total: number): PageMeta {
  return {
    current_page: page.page,
    last_page: Math.max(1, Math.ceil(total / page.perPage)),
    per_page: page.perPage,
    total,
  };
}
