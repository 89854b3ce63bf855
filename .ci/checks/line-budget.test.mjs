import { describe, expect, it } from 'vitest';
import { BUDGET, budgetProblems, countLines, EXEMPT, exemption } from './line-budget.mjs';

const over = BUDGET + 1;

describe('the line budget', () => {
  it('refuses a hand-written file over the budget that is not listed', () => {
    expect(budgetProblems([{ path: 'server/domain/big.ts', lines: over }], [], {})).toEqual([
      expect.stringContaining('server/domain/big.ts: 601 lines, over the budget of 600'),
    ]);
    expect(budgetProblems([{ path: 'src/features/x/page.tsx', lines: BUDGET }], [], {})).toEqual([]);
  });

  it('takes a listed file over the budget, and refuses it once it is back within (the list only shrinks)', () => {
    expect(
      budgetProblems([{ path: 'machines/purchase.machine.ts', lines: over }], ['machines/purchase.machine.ts'], {}),
    ).toEqual([]);
    expect(
      budgetProblems([{ path: 'machines/purchase.machine.ts', lines: 420 }], ['machines/purchase.machine.ts'], {}),
    ).toEqual([expect.stringContaining('within the budget now')]);
    expect(budgetProblems([], ['machines/gone.machine.ts'], {})).toEqual([expect.stringContaining('take it off')]);
  });

  it('does not count the files it names as exempt, and only those', () => {
    const exempt = { 'openapi/schema.ts': 'generated', 'server/db/seed/geo-data.ts': 'data' };
    const big = (paths) => paths.map((path) => ({ path, lines: 5_000 }));
    expect(
      budgetProblems(big(['openapi/schema.ts', 'server/db/seed/geo-data.ts', 'docs/areas/x.md']), [], exempt),
    ).toEqual([]);
    // a test, another generated file or another seed is counted unless named
    expect(
      budgetProblems(
        big(['server/routes/trade.test.ts', 'openapi/valibot/sales.ts', 'e2e/purchase.spec.ts']),
        [],
        exempt,
      ).map((p) => p.split(':')[0]),
    ).toEqual(
      expect.arrayContaining(['server/routes/trade.test.ts', 'openapi/valibot/sales.ts', 'e2e/purchase.spec.ts']),
    );
    // a named exemption that is gone is taken off
    expect(budgetProblems([], [], { 'openapi/gone.ts': 'generated' })).toEqual([
      expect.stringContaining('openapi/gone.ts is on EXEMPT'),
    ]);
    expect(exemption('openapi/schema.ts')).toContain('contract:gen');
    expect(exemption('server/routes/trade.test.ts')).toBeNull();
    expect(Object.keys(EXEMPT).every((path) => !/\.test\.|\.spec\./.test(path))).toBe(true);
  });

  it('counts lines as wc -l does', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('a\nb')).toBe(2);
  });
});
