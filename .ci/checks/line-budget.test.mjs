import { describe, expect, it } from 'vitest';
import { BUDGET, budgetProblems, countLines, exemption } from './line-budget.mjs';

const over = BUDGET + 1;

describe('the line budget', () => {
  it('refuses a hand-written file over the budget that is not listed', () => {
    expect(budgetProblems([{ path: 'server/domain/big.ts', lines: over }], [])).toEqual([
      expect.stringContaining('server/domain/big.ts: 601 lines, over the budget of 600'),
    ]);
    expect(budgetProblems([{ path: 'src/features/x/page.tsx', lines: BUDGET }], [])).toEqual([]);
  });

  it('takes a listed file over the budget, and refuses it once it is back within (the list only shrinks)', () => {
    expect(
      budgetProblems([{ path: 'machines/purchase.machine.ts', lines: over }], ['machines/purchase.machine.ts']),
    ).toEqual([]);
    expect(
      budgetProblems([{ path: 'machines/purchase.machine.ts', lines: 420 }], ['machines/purchase.machine.ts']),
    ).toEqual([expect.stringContaining('within the budget now')]);
    expect(budgetProblems([], ['machines/gone.machine.ts'])).toEqual([expect.stringContaining('take it off')]);
  });

  it('does not count generated files, pure data and tests, each for its named reason', () => {
    const big = [
      'openapi/schema.ts',
      'openapi/valibot/sales.ts',
      'public/flows/session.stories.json',
      'package-lock.json',
      'server/db/seed/geo-data.ts',
      'server/routes/trade.test.ts',
      'src/features/sales/sales-page.test.tsx',
      'e2e/purchase.spec.ts',
      'docs/areas/purchase.md',
    ].map((path) => ({ path, lines: 5_000 }));
    expect(budgetProblems(big, [])).toEqual([]);
    expect(exemption('openapi/schema.ts')).toContain('contract:gen');
    expect(exemption('server/db/seed/demo-sales.ts')).toBeNull();
    expect(exemption('server/test-support.ts')).toBeNull();
  });

  it('counts lines as wc -l does', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('a\nb')).toBe(2);
  });
});
