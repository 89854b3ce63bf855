import { describe, expect, it } from 'vitest';
import { markupBps } from './admin-price-caps-page';

describe('the markup typed on the price caps page', () => {
  it('reads percent as basis points, from 0 to 1000%, two decimals at most', () => {
    expect(markupBps('0')).toBe(0);
    expect(markupBps('10')).toBe(1000);
    expect(markupBps(' 10.5 % ')).toBe(1050);
    expect(markupBps('1000')).toBe(100_000);
  });

  it('refuses what the server would refuse, and what is not a number', () => {
    for (const bad of ['', '-5', '1000.01', '1200', '10.555', 'ten', '1e3']) expect(markupBps(bad)).toBeNull();
  });
});
