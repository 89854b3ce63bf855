import { describe, expect, it } from 'vitest';
import { arrivesBy, dayOf, nextPayout, payoutRunAfter } from './payout-schedule';

describe('the payout run and arrival', () => {
  it('goes in the same working day before 12:00 UK time, the next working day after it', () => {
    // Wednesday 25 Nov 2026, winter: London is UTC
    expect(payoutRunAfter(new Date('2026-11-25T11:59:00Z')).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    expect(payoutRunAfter(new Date('2026-11-25T12:00:00Z')).toISOString()).toBe('2026-11-26T12:00:00.000Z');
    // Friday after the run and the weekend: Monday's run
    expect(payoutRunAfter(new Date('2026-11-27T15:00:00Z')).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect(payoutRunAfter(new Date('2026-11-28T09:00:00Z')).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    // summer time: 12:00 in London is 11:00 UTC
    expect(payoutRunAfter(new Date('2026-07-01T10:30:00Z')).toISOString()).toBe('2026-07-01T11:00:00.000Z');
    expect(payoutRunAfter(new Date('2026-07-01T11:30:00Z')).toISOString()).toBe('2026-07-02T11:00:00.000Z');
    // a London evening that is already the next UTC day counts as London's day
    expect(payoutRunAfter(new Date('2026-07-02T23:30:00Z')).toISOString()).toBe('2026-07-03T11:00:00.000Z');
  });

  it('arrives the working day after its run; a sent payout the working day after it was sent; a failed one never', () => {
    expect(arrivesBy({ status: 'requested', created_at: '2026-11-27T15:00:00Z', decided_at: null })).toBe('2026-12-01');
    expect(arrivesBy({ status: 'requested', created_at: '2026-11-25T08:00:00Z', decided_at: null })).toBe('2026-11-26');
    expect(arrivesBy({ status: 'sent', created_at: '2026-11-20T08:00:00Z', decided_at: '2026-11-27T16:00:00Z' })).toBe(
      '2026-11-30',
    );
    expect(
      arrivesBy({ status: 'failed', created_at: '2026-11-20T08:00:00Z', decided_at: '2026-11-21T08:00:00Z' }),
    ).toBe(null);
    expect(dayOf('2026-11-30')).toBe('Mon 30 Nov');
  });

  it('says when the next payout can be requested, and why not now', () => {
    const now = new Date('2026-11-28T22:00:00Z');
    const base = {
      now,
      hasAccount: true,
      best: { currency: 'GBP', available: 5_000 },
      minimum: 2_000,
      open: 0,
      maxOpen: 3,
    };
    expect(nextPayout(base)).toEqual({
      can_request: true,
      message:
        'You can request a payout now: it goes in the payout run of Mon 30 Nov at 12:00 UK time and arrives by Tue 1 Dec.',
      run_at: '2026-11-30T12:00:00.000Z',
      arrives_by: '2026-12-01',
    });
    expect(nextPayout({ ...base, hasAccount: false }).message).toMatch(/^Add a payout account first\./);
    expect(nextPayout({ ...base, open: 3 }).message).toMatch(/^You have 3 payouts in progress/);
    expect(nextPayout({ ...base, best: { currency: 'GBP', available: 1_999 } })).toMatchObject({
      can_request: false,
      message: expect.stringMatching(/^You can request a payout once 20\.00 of a currency is available/),
    });
  });
});
