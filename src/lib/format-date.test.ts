import { describe, expect, it } from 'vitest';
import { formatDate, toIsoDate } from './format-date';

describe('formatDate', () => {
  it("writes 'Day, D Mon YYYY'", () => {
    expect(formatDate('2026-11-22')).toBe('Sun, 22 Nov 2026');
    expect(formatDate('2024-02-29')).toBe('Thu, 29 Feb 2024');
    expect(formatDate(new Date(2027, 0, 4))).toBe('Mon, 4 Jan 2027');
  });

  it('does not shift a bare calendar date by the time zone', () => {
    expect(formatDate('2026-01-01')).toBe('Thu, 1 Jan 2026');
  });

  it('shows nothing for nothing or nonsense', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('round-trips calendar dates', () => {
    expect(toIsoDate(new Date(2026, 10, 22))).toBe('2026-11-22');
  });
});
