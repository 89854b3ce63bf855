import { describe, expect, it } from 'vitest';
import { cpuTicksOfStat, errorsText, loadText, percentile, purchaseLine } from './bench-purchase-report';

describe("bench:purchase's last line", () => {
  const product = { rate: 1234.4, p99: 45.2, cpuUs: 380.4 };
  const reference = { rate: 2100, p99: 40, cpuUs: 260 };

  it('says both servers, their ratios and the checks in the form the issue fixes', () => {
    expect(purchaseLine(product, reference, { oversold: 0, balanced: true })).toBe(
      'purchase: product 1234/s p99 45 ms cpu 380 us | reference 2100/s p99 40 ms cpu 260 us | ratio 0.59 cpu 1.46x | oversold 0 ledger balanced',
    );
  });

  it('adds the deadlocks and the lock waits on PostgreSQL', () => {
    expect(
      purchaseLine(product, reference, {
        oversold: 0,
        balanced: true,
        postgres: { deadlocks: 0, lockWaitShare: 0.01234 },
      }),
    ).toBe(
      'purchase: product 1234/s p99 45 ms cpu 380 us | reference 2100/s p99 40 ms cpu 260 us | ratio 0.59 cpu 1.46x | oversold 0 ledger balanced | deadlocks 0 lock-waits 1.2%',
    );
  });

  it('says an oversold listing and an unbalanced ledger', () => {
    expect(purchaseLine(product, reference, { oversold: 2, balanced: false })).toMatch(
      / \| oversold 2 ledger unbalanced$/,
    );
  });

  it('gives one server alone without a ratio', () => {
    expect(purchaseLine(undefined, reference, { oversold: 0, balanced: true })).toBe(
      'purchase: reference 2100/s p99 40 ms cpu 260 us | oversold 0 ledger balanced',
    );
  });

  it('writes a figure it could not take as a dash, not NaN', () => {
    const none = { rate: 0, p99: Number.NaN, cpuUs: Number.POSITIVE_INFINITY };
    expect(purchaseLine(none, reference, { oversold: 0, balanced: true })).toBe(
      'purchase: product 0/s p99 - ms cpu - us | reference 2100/s p99 40 ms cpu 260 us | ratio 0.00 cpu -x | oversold 0 ledger balanced',
    );
  });
});

describe('cpuTicksOfStat', () => {
  it('adds utime and stime, counting fields after the command name', () => {
    const stat = '4242 (node) S 1 4242 4242 0 -1 4194560 20883 0 0 0 1234 56 0 0 20 0 11 0 9876 1 2 3';
    expect(cpuTicksOfStat(stat)).toBe(1290);
  });

  it('is not misled by spaces and parentheses in the command name', () => {
    const stat = '77 (my (odd) name) R 1 77 77 0 -1 0 0 0 0 0 10 5 0 0 20 0 1 0 1 1 1';
    expect(cpuTicksOfStat(stat)).toBe(15);
  });

  it('refuses a text that is not a stat line', () => {
    expect(() => cpuTicksOfStat('hello')).toThrow(/not a \/proc/);
  });
});

describe('the detail helpers', () => {
  it('percentile picks the rank, NaN when empty', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(51);
    expect(percentile(sorted, 99)).toBe(100);
    expect(percentile([], 99)).toBeNaN();
  });

  it('lists the errors most frequent first', () => {
    expect(errorsText(new Map())).toBe('none');
    expect(
      errorsText(
        new Map([
          ['inventory/buy 409', 1],
          ['add-to-cart 429', 3],
        ]),
      ),
    ).toBe('add-to-cart 429 x3, inventory/buy 409 x1');
  });

  it('writes the load averages with two decimals', () => {
    expect(loadText([1.5, 0.256, 2])).toBe('1.50 0.26 2.00');
  });
});
