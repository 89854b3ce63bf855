import { formatMinorUnits } from './money';

/**
 * The rules of the numeric text fields (spec section 5): only digits, one decimal point and a leading
 * minus; pasted thousands commas are stripped; a leading dot gets a zero prefix. Currency and decimal
 * fields show two decimals and thousands separators when unfocused, and zero shows empty on focus.
 */
export interface NumericRules {
  /** A leading minus is allowed (default true). */
  allowNegative?: boolean;
  /** A decimal point is allowed (default true). */
  allowDecimal?: boolean;
  /** At most this many digits after the point (default: no limit). */
  maxDecimals?: number;
}

const SHAPE = /^(-?)(\d*)(\.?)(\d*)$/;

/**
 * The text a numeric field holds after an edit, or null when the edit is refused and the field keeps
 * its text. `next` is the whole new text (typed or pasted).
 *
 * '1,234.5' → '1234.5'; '.5' → '0.5'; '-.5' → '-0.5'; '1.2.' → null (a second point);
 * '1-' → null (the minus only comes first); '12a' → null.
 */
export function acceptNumericEdit(next: string, rules: NumericRules = {}): string | null {
  const { allowNegative = true, allowDecimal = true, maxDecimals } = rules;
  const text = next.replace(/[,\s]/g, '');
  const m = SHAPE.exec(text);
  if (!m) return null;
  const [, sign = '', whole = '', point = '', fraction = ''] = m;
  if (sign && !allowNegative) return null;
  if (point && !allowDecimal) return null;
  if (maxDecimals !== undefined && fraction.length > maxDecimals) return null;
  return `${sign}${point && whole === '' ? '0' : whole}${point}${fraction}`;
}

/**
 * What a currency or decimal field shows while it has the focus: the plain amount to edit
 * ('1234.50', no separators), and nothing at all for zero or no value.
 */
export function toEditText(minor: number | null, exponent = 2): string {
  if (minor === null || minor === 0) return '';
  return formatMinorUnits(minor, exponent, { grouping: false });
}

/** What a currency or decimal field shows without the focus: '1,234.50', or nothing for no value. */
export function toDisplayText(minor: number | null, exponent = 2): string {
  return minor === null ? '' : formatMinorUnits(minor, exponent);
}
