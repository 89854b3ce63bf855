import { describe, expect, it } from 'vitest';
import { parseMinorUnits } from './money';
import { acceptNumericEdit, toDisplayText, toEditText } from './numeric-input';

describe('acceptNumericEdit', () => {
  it("strips pasted thousands commas: '1,234.5' is 1234.5, shown 1,234.50 when blurred", () => {
    const text = acceptNumericEdit('1,234.5');
    expect(text).toBe('1234.5');
    const minor = parseMinorUnits(text ?? '');
    expect(minor).toBe(123450);
    expect(toDisplayText(minor)).toBe('1,234.50');
  });

  it("gives a leading dot a zero: '.5' is 0.5", () => {
    expect(acceptNumericEdit('.5')).toBe('0.5');
    expect(acceptNumericEdit('.')).toBe('0.');
    expect(acceptNumericEdit('-.5')).toBe('-0.5');
  });

  it('refuses a second decimal point', () => {
    expect(acceptNumericEdit('1.2.')).toBeNull();
    expect(acceptNumericEdit('1..')).toBeNull();
    expect(acceptNumericEdit('1,2.3.4')).toBeNull();
  });

  it("takes '-' only first", () => {
    expect(acceptNumericEdit('-')).toBe('-');
    expect(acceptNumericEdit('-12')).toBe('-12');
    expect(acceptNumericEdit('1-')).toBeNull();
    expect(acceptNumericEdit('1-2')).toBeNull();
    expect(acceptNumericEdit('--1')).toBeNull();
  });

  it('takes only digits', () => {
    expect(acceptNumericEdit('12a')).toBeNull();
    expect(acceptNumericEdit('£12')).toBeNull();
    expect(acceptNumericEdit('1e5')).toBeNull();
    expect(acceptNumericEdit('+1')).toBeNull();
    expect(acceptNumericEdit('')).toBe('');
    expect(acceptNumericEdit('007')).toBe('007');
  });

  it('follows the field: no minus, no point, at most N decimals', () => {
    expect(acceptNumericEdit('-1', { allowNegative: false })).toBeNull();
    expect(acceptNumericEdit('1.5', { allowDecimal: false })).toBeNull();
    expect(acceptNumericEdit('1.55', { maxDecimals: 2 })).toBe('1.55');
    expect(acceptNumericEdit('1.555', { maxDecimals: 2 })).toBeNull();
  });
});

describe('focus and blur texts', () => {
  it('zero shows empty on focus, and 0.00 without it', () => {
    expect(toEditText(0)).toBe('');
    expect(toDisplayText(0)).toBe('0.00');
  });

  it('an amount is edited plain and shown grouped', () => {
    expect(toEditText(123450)).toBe('1234.50');
    expect(toDisplayText(123450)).toBe('1,234.50');
    expect(toEditText(-29)).toBe('-0.29');
  });

  it('no value shows nothing', () => {
    expect(toEditText(null)).toBe('');
    expect(toDisplayText(null)).toBe('');
  });
});
