/**
 * Money is an integer count of minor units (pence, cents, fils) with its currency code, never a float.
 * Amounts are read from and written to text digit by digit, so '0.29' is 29 and never 28.999...
 */

export interface Money {
  /** Minor units: 1234.50 GBP is 123450. */
  minor: number;
  currency: string;
}

/**
 * The product's own currencies (the server's `currencies` table), answered without the platform: a page's first
 * Intl.NumberFormat loads the browser's locale data, 40 to 90 ms of the dashboard's script on this machine
 * (160 to 360 ms at Lighthouse's 4x CPU slowdown), and the dashboard needs nothing else from Intl. The same
 * answers as Intl's (money.test.ts compares them).
 */
export const KNOWN_CURRENCIES: Readonly<Record<string, { symbol: string; exponent: number }>> = {
  GBP: { symbol: '£', exponent: 2 },
  EUR: { symbol: '€', exponent: 2 },
  USD: { symbol: '$', exponent: 2 },
  AED: { symbol: 'AED', exponent: 2 },
};

/**
 * Keeps each answer per currency code: building an Intl.NumberFormat costs about a millisecond, and a dashboard
 * formats some sixty amounts as its widgets come in (two formatters each, 100+ ms of the page's script on a
 * loaded machine before this cache).
 */
function perCurrency<T>(read: (currency: string) => T): (currency: string) => T {
  const kept = new Map<string, T>();
  return (currency) => {
    if (!kept.has(currency)) kept.set(currency, read(currency));
    return kept.get(currency) as T;
  };
}

/** How many decimals a currency's minor unit has (ISO 4217, from the platform): GBP 2, JPY 0, KWD 3. */
export const currencyExponent = perCurrency((currency): number => {
  const known = KNOWN_CURRENCIES[currency];
  if (known) return known.exponent;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
});

/** The symbol shown before an amount: '£' for GBP, '$' for USD, 'AED' for AED; the code when unknown. */
export const currencySymbol = perCurrency((currency): string => {
  const known = KNOWN_CURRENCIES[currency];
  if (known) return known.symbol;
  try {
    const parts = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    return parts.formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
});

const AMOUNT = /^(-?)(\d*)(?:\.(\d*))?$/;

/**
 * Reads an amount typed as text ('1234.5', '-0.29', '.5', '12') into minor units with `exponent` decimals.
 * Thousands commas and spaces are ignored. Answers null for text that is not an amount, that has more
 * decimals than the currency has, or that is too large to count exactly.
 */
export function parseMinorUnits(text: string, exponent = 2): number | null {
  const m = AMOUNT.exec(text.replace(/[,\s]/g, ''));
  if (!m) return null;
  const [, sign, whole = '', fraction = ''] = m;
  if (whole === '' && fraction === '') return null;
  if (fraction.length > exponent) return null;
  const digits = `${whole || '0'}${fraction.padEnd(exponent, '0')}`;
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return null;
  return sign === '-' && minor !== 0 ? -minor : minor;
}

/** Groups the digits of a whole number by thousands: '1234567' → '1,234,567'. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Writes minor units as an amount with all its decimals: 123450 → '1,234.50' (or '1234.50' without
 * grouping), -5 → '-0.05', 0 → '0.00'.
 */
export function formatMinorUnits(minor: number, exponent = 2, options: { grouping?: boolean } = {}): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`minor units must be a safe integer, got ${minor}`);
  const grouping = options.grouping ?? true;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const sign = minor < 0 ? '-' : '';
  return `${sign}${grouping ? groupThousands(whole) : whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** An amount with its currency symbol: `formatMoney({ minor: 123450, currency: 'GBP' })` → '£1,234.50'. */
export function formatMoney({ minor, currency }: Money): string {
  const symbol = currencySymbol(currency);
  const amount = formatMinorUnits(Math.abs(minor), currencyExponent(currency));
  const sign = minor < 0 ? '-' : '';
  return symbol.length > 1 ? `${sign}${symbol} ${amount}` : `${sign}${symbol}${amount}`;
}
