import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { call, type Server } from './trade-testing';

type ListAnswer = { tickets: { id: number }[]; meta: { total: number; next_cursor: string | null } };

describe('Inventory read page by page (server)', () => {
  let s: Server;
  let seller: string;

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
  });
  afterAll(async () => {
    await s?.close();
  });

  // Inventory's first page is 50 rows and the next ones 200: the cursor goes on until every listing is read
  it.each(['match_date', 'price_desc'])(
    'reads every listing once by cursor when the first page is smaller than the next (%s)',
    async (sort) => {
      const read = async (query: string) =>
        (await call(s, 'GET', `/my-listings?sort=${sort}&${query}`, seller)).body.data as unknown as ListAnswer;
      let page = await read('per_page=50');
      const total = page.meta.total;
      expect(total).toBeGreaterThan(250);
      const ids = page.tickets.map((t) => t.id);
      while (page.meta.next_cursor) {
        page = await read(`per_page=200&cursor=${page.meta.next_cursor}`);
        ids.push(...page.tickets.map((t) => t.id));
      }
      expect(ids.length).toBe(total);
      expect(new Set(ids).size).toBe(total);
    },
  );
});
