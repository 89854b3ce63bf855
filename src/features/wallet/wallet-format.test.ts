import { describe, expect, it } from 'vitest';
import { toCsv } from '../../lib/csv';
import { timeLeft, trackingSteps } from './deposit-tracking';

describe('the CSV export', () => {
  const columns = [
    { heading: 'Notes', cell: (r: { notes: string | null; amount: string }) => r.notes },
    { heading: 'Amount', cell: (r: { notes: string | null; amount: string }) => r.amount },
  ];

  it('quotes commas, quotes and line breaks, and leaves empty cells empty', () => {
    expect(
      toCsv(
        [
          { notes: 'a, "b"\nc', amount: '1.00' },
          { notes: null, amount: '2.00' },
        ],
        columns,
      ),
    ).toBe('Notes,Amount\r\n"a, ""b""\nc",1.00\r\n,2.00\r\n');
  });

  it('never hands a spreadsheet a formula, but keeps negative amounts as numbers', () => {
    expect(toCsv([{ notes: '=HYPERLINK("http://x")', amount: '-12.50' }], columns)).toBe(
      `Notes,Amount\r\n"'=HYPERLINK(""http://x"")",-12.50\r\n`,
    );
    expect(toCsv([{ notes: '@SUM(A1)', amount: '1' }], columns)).toContain("'@SUM(A1)");
  });
});

describe('live tracking of a deposit', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('says what is left of the 24-hour promise', () => {
    expect(timeLeft('2026-11-23T07:30:00Z', now)).toBe('21 h 30 min left of 24 h');
    expect(timeLeft('2026-11-22T10:00:30Z', now)).toBe('1 min left of 24 h');
    expect(timeLeft('2026-11-23T06:59:30Z', now)).toBe('21 h 0 min left of 24 h');
    // a page's clock a moment behind the server's: never more than the promise
    expect(timeLeft('2026-11-23T10:00:40Z', now)).toBe('24 h 0 min left of 24 h');
    expect(timeLeft('2026-11-22T09:00:00Z', now)).toBe('Past the 24-hour promise: please reach out to support');
  });

  it('shows submitted, under review, then approved or rejected', () => {
    const states = (status: 'pending' | 'approved' | 'rejected') =>
      trackingSteps({ status }).map((s) => `${s.step}:${s.state}`);
    expect(states('pending')).toEqual(['Submitted:done', 'Under review:current', 'Approved:todo']);
    expect(states('approved')).toEqual(['Submitted:done', 'Under review:done', 'Approved:current']);
    expect(states('rejected')).toEqual(['Submitted:done', 'Under review:done', 'Rejected:current']);
  });
});
