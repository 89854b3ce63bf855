import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deadlinesFor, MOBILE_TICKET_TYPE, transfersOpenOf } from './deadlines';

const HOUR = 3_600_000;
const order = (created: string, match: string, inHand: string | null = null) => ({
  created_at: created,
  event_date: match.slice(0, 10),
  event_time: match.slice(11, 16),
  in_hand_date: inHand,
});

describe('an order’s deadlines', () => {
  it('never ask for acceptance after the delivery is due (a late sale: accept by the delivery deadline)', () => {
    // sold on Saturday morning for a Monday match: delivery is due 24 hours after the sale, on Sunday
    const d = deadlinesFor('pending', order('2026-11-28T10:00:00.000Z', '2026-11-30T12:00'));
    expect(d.deliver_by).toBe('2026-11-29T10:00:00.000Z');
    expect(d.accept_by).toBe('2026-11-29T10:00:00.000Z');
  });

  it('keep the 48 hours to accept when the delivery is due later', () => {
    const d = deadlinesFor('pending', order('2026-11-28T10:00:00.000Z', '2026-12-20T15:00'));
    expect(d.accept_by).toBe('2026-11-30T10:00:00.000Z');
    expect(d.deliver_by).toBe('2026-12-18T15:00:00.000Z');
  });

  it('do not make the delivery due before the tickets are in hand (the end of that day, or the kick-off)', () => {
    // in hand from 19 December: the usual 48 hours before the match would be the 18th
    const d = deadlinesFor('confirmed', order('2026-11-28T10:00:00.000Z', '2026-12-20T15:00', '2026-12-19'));
    expect(d.deliver_by).toBe('2026-12-20T00:00:00.000Z');
    expect(d.accept_by).toBeNull();
    // in hand on match day: due at kick-off
    const late = deadlinesFor('confirmed', order('2026-11-28T10:00:00.000Z', '2026-12-20T15:00', '2026-12-20'));
    expect(late.deliver_by).toBe('2026-12-20T15:00:00.000Z');
    // an in-hand date before the usual deadline changes nothing
    const early = deadlinesFor('confirmed', order('2026-11-28T10:00:00.000Z', '2026-12-20T15:00', '2026-12-01'));
    expect(early.deliver_by).toBe('2026-12-18T15:00:00.000Z');
  });

  it('hold for any sale, match and in-hand date: accept ≤ deliver, neither before the sale, delivery not before in hand', () => {
    const start = Date.parse('2026-11-01T00:00:00.000Z');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 * 24 }),
        fc.integer({ min: 1, max: 60 * 24 }),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
        (createdH, matchAfterH, inHandDaysBeforeMatch) => {
          const created = new Date(start + createdH * HOUR);
          const match = new Date(created.getTime() + matchAfterH * HOUR);
          const matchIso = match.toISOString();
          const inHand =
            inHandDaysBeforeMatch === null
              ? null
              : new Date(Date.parse(`${matchIso.slice(0, 10)}T00:00:00.000Z`) - inHandDaysBeforeMatch * 24 * HOUR)
                  .toISOString()
                  .slice(0, 10);
          const d = deadlinesFor('pending', order(created.toISOString(), matchIso, inHand));
          const accept = Date.parse(d.accept_by ?? '');
          const deliver = Date.parse(d.deliver_by ?? '');
          expect(accept).toBeLessThanOrEqual(deliver);
          expect(accept).toBeGreaterThanOrEqual(created.getTime());
          expect(deliver).toBeGreaterThanOrEqual(created.getTime());
          if (inHand) expect(deliver).toBeGreaterThanOrEqual(Date.parse(`${inHand}T00:00:00.000Z`));
        },
      ),
    );
  });

  it('do not make mobile tickets due before the club opens transfers (12 hours into the window, at most kick-off)', () => {
    const mobile = (windowHours: number | null, type = MOBILE_TICKET_TYPE) => ({
      ...order('2026-11-28T10:00:00.000Z', '2026-12-20T15:00'),
      ticket_type_id: type,
      transfers_open_at: transfersOpenOf('2026-12-20', '15:00', windowHours),
    });
    // transfers open 24 h before kick-off: the usual deadline (48 h before) would fall before the window
    expect(deadlinesFor('confirmed', mobile(24)).deliver_by).toBe('2026-12-20T03:00:00.000Z');
    // open 72 h before: the usual deadline is already 24 h into the window, unchanged
    expect(deadlinesFor('confirmed', mobile(72)).deliver_by).toBe('2026-12-18T15:00:00.000Z');
    // open 6 h before: due at kick-off, never after it
    expect(deadlinesFor('confirmed', mobile(6)).deliver_by).toBe('2026-12-20T15:00:00.000Z');
    // a PDF order of the same event keeps the usual deadline; no window, no change
    expect(deadlinesFor('confirmed', mobile(24, 1)).deliver_by).toBe('2026-12-18T15:00:00.000Z');
    expect(deadlinesFor('confirmed', mobile(null)).deliver_by).toBe('2026-12-18T15:00:00.000Z');
    // the acceptance deadline still comes first
    const pending = deadlinesFor('pending', mobile(24));
    expect(Date.parse(pending.accept_by ?? '')).toBeLessThanOrEqual(Date.parse(pending.deliver_by ?? ''));
  });

  it('never count a mobile order late before its transfers open, for any sale, match and window', () => {
    const start = Date.parse('2026-11-01T00:00:00.000Z');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 * 24 }),
        fc.integer({ min: 1, max: 60 * 24 }),
        fc.integer({ min: 1, max: 168 }),
        (createdH, matchAfterH, windowHours) => {
          const created = new Date(start + createdH * HOUR).toISOString();
          const match = new Date(Date.parse(created) + matchAfterH * HOUR).toISOString();
          const opens = transfersOpenOf(match.slice(0, 10), match.slice(11, 16), windowHours);
          const d = deadlinesFor('confirmed', {
            ...order(created, match),
            ticket_type_id: MOBILE_TICKET_TYPE,
            transfers_open_at: opens,
          });
          expect(Date.parse(d.deliver_by ?? '')).toBeGreaterThanOrEqual(Date.parse(opens ?? ''));
        },
      ),
    );
  });
});
