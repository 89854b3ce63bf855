import { describe, expect, it, vi } from 'vitest';
import {
  currencyExponent,
  currencySymbol,
  formatMinorUnits,
  formatMoney,
  groupThousands,
  KNOWN_CURRENCIES,
  parseMinorUnits,
} from './money';

describe('parseMinorUnits', () => {
  it('reads text digit by digit, never through a float', () => {
    expect(parseMinorUnits('0.29')).toBe(29);
    expect(0.29 * 100).not.toBe(29); // what multiplying would have given
    expect(parseMinorUnits('1.15')).toBe(115);
    expect(parseMinorUnits('4.35')).toBe(435);
    expect(parseMinorUnits('1234.5')).toBe(123450);
    expect(parseMinorUnits('1234.50')).toBe(123450);
    expect(parseMinorUnits('12')).toBe(1200);
    expect(parseMinorUnits('12.')).toBe(1200);
  });

  it('takes a leading dot, a leading minus and thousands commas', () => {
    expect(parseMinorUnits('.5')).toBe(50);
    expect(parseMinorUnits('-0.05')).toBe(-5);
    expect(parseMinorUnits('-.5')).toBe(-50);
    expect(parseMinorUnits('1,234.5')).toBe(123450);
    expect(parseMinorUnits(' 1 000 ')).toBe(100000);
  });

  it('has no negative zero', () => {
    expect(Object.is(parseMinorUnits('-0'), 0)).toBe(true);
    expect(Object.is(parseMinorUnits('-0.00'), 0)).toBe(true);
  });

  it('answers null for what is not an amount', () => {
    for (const text of ['', '-', '.', '-.', 'abc', '1.2.3', '1-', '--1', '1.234', '£1']) {
      expect(parseMinorUnits(text), text).toBeNull();
    }
  });

  it('follows the currency exponent', () => {
    expect(parseMinorUnits('1.234', 3)).toBe(1234);
    expect(parseMinorUnits('500', 0)).toBe(500);
    expect(parseMinorUnits('500.5', 0)).toBeNull();
  });

  it('refuses amounts too large to count exactly', () => {
    expect(parseMinorUnits('90071992547409.91')).toBe(9007199254740991);
    expect(parseMinorUnits('90071992547409.92')).toBeNull();
  });
});

describe('formatMinorUnits', () => {
  it('writes two decimals with thousands separators', () => {
    expect(formatMinorUnits(123450)).toBe('1,234.50');
    expect(formatMinorUnits(0)).toBe('0.00');
    expect(formatMinorUnits(5)).toBe('0.05');
    expect(formatMinorUnits(-5)).toBe('-0.05');
    expect(formatMinorUnits(100000000)).toBe('1,000,000.00');
    expect(formatMinorUnits(123450, 2, { grouping: false })).toBe('1234.50');
  });

  it('round-trips with parseMinorUnits', () => {
    for (const minor of [0, 1, 29, 99, 100, 123450, -987654321, 9007199254740991]) {
      expect(parseMinorUnits(formatMinorUnits(minor))).toBe(minor);
    }
  });

  it('follows the exponent and refuses floats', () => {
    expect(formatMinorUnits(1234, 3)).toBe('1.234');
    expect(formatMinorUnits(1234, 0)).toBe('1,234');
    expect(() => formatMinorUnits(1.5)).toThrow();
  });

  it('groups thousands', () => {
    expect(groupThousands('1')).toBe('1');
    expect(groupThousands('1234')).toBe('1,234');
    expect(groupThousands('123456')).toBe('123,456');
  });
});

describe('currencies', () => {
  it('knows their minor units', () => {
    expect(currencyExponent('GBP')).toBe(2);
    expect(currencyExponent('AED')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('not a code')).toBe(2);
  });

  it('knows their symbols', () => {
    expect(currencySymbol('GBP')).toBe('£');
    expect(currencySymbol('USD')).toBe('$');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('AED')).toBe('AED');
  });

  it("answers the product's currencies as the platform would, without asking it", async () => {
    // a fresh copy of the module: the tests above have kept their answers
    vi.resetModules();
    const fresh = await import('./money');
    const built = vi.spyOn(Intl, 'NumberFormat');
    try {
      for (const code of Object.keys(KNOWN_CURRENCIES)) {
        fresh.currencySymbol(code);
        fresh.currencyExponent(code);
      }
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
    for (const [code, known] of Object.entries(KNOWN_CURRENCIES)) {
      const intl = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
      expect(known.symbol, code).toBe(intl.formatToParts(0).find((p) => p.type === 'currency')?.value);
      expect(known.exponent, code).toBe(intl.resolvedOptions().maximumFractionDigits);
    }
  });

  it('formats money', () => {
    expect(formatMoney({ minor: 123450, currency: 'GBP' })).toBe('£1,234.50');
    expect(formatMoney({ minor: -500, currency: 'USD' })).toBe('-$5.00');
    expect(formatMoney({ minor: 1000, currency: 'AED' })).toBe('AED 10.00');
  });

  it('builds the formatters of a currency once, however many amounts it writes', () => {
    const built = vi.spyOn(Intl, 'NumberFormat');
    try {
      for (let minor = 0; minor < 50; minor++) formatMoney({ minor, currency: 'CHF' });
      expect(formatMoney({ minor: 12345, currency: 'CHF' })).toBe('CHF 123.45');
      // its exponent and its symbol, each asked of the platform once (not a 'not a code' kept as its own)
      expect(built).toHaveBeenCalledTimes(2);
      expect(currencyExponent('XXY')).toBe(2);
      expect(currencyExponent('XXY')).toBe(2);
      expect(built).toHaveBeenCalledTimes(3);
    } finally {
      built.mockRestore();
    }
  });
});
