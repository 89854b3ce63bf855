import { describe, expect, it } from 'vitest';
import { byDeadline, deadlineText, deadlineTone, nextDeadline } from './deadline';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const inHours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

describe('the deadline urgency rule', () => {
  it('is overdue once past, urgent within 24 hours, later after that', () => {
    expect(deadlineTone(inHours(-1), NOW)).toBe('overdue');
    expect(deadlineTone(inHours(0), NOW)).toBe('urgent');
    expect(deadlineTone(inHours(23.9), NOW)).toBe('urgent');
    expect(deadlineTone(inHours(24), NOW)).toBe('urgent');
    expect(deadlineTone(inHours(24.01), NOW)).toBe('later');
    expect(deadlineTone(inHours(72), NOW)).toBe('later');
    expect(deadlineTone(inHours(24 * 30), NOW)).toBe('later');
  });

  it("takes a pending order's acceptance, an order awaiting delivery its delivery, a closed order none", () => {
    const at = { accept_by: inHours(5), deliver_by: inHours(20) };
    expect(nextDeadline({ status: 'pending', ...at })).toEqual({ kind: 'accept', at: at.accept_by });
    expect(nextDeadline({ status: 'confirmed', accept_by: null, deliver_by: at.deliver_by })).toEqual({
      kind: 'deliver',
      at: at.deliver_by,
    });
    expect(nextDeadline({ status: 'delivered', accept_by: null, deliver_by: null })).toBeNull();
  });

  it('has no colour without a readable deadline', () => {
    expect(deadlineTone(null, NOW)).toBe('none');
    expect(deadlineTone(undefined, NOW)).toBe('none');
    expect(deadlineTone('', NOW)).toBe('none');
    expect(deadlineTone('not a date', NOW)).toBe('none');
  });

  it('says how long is left, or how late it is', () => {
    expect(deadlineText(inHours(5.5), NOW)).toBe('Due in 5 h');
    expect(deadlineText(inHours(0.5), NOW)).toBe('Due in less than 1 h');
    expect(deadlineText(inHours(50), NOW)).toBe('Due in 2 days');
    expect(deadlineText(inHours(-3.2), NOW)).toBe('Overdue by 3 h');
    expect(deadlineText(null, NOW)).toBe('');
  });

  it('sorts open orders soonest first, those without a deadline last', () => {
    const orders = [
      { id: 1, deadline: inHours(50) },
      { id: 2, deadline: null },
      { id: 3, deadline: inHours(-2) },
      { id: 4, deadline: inHours(10) },
      { id: 5, deadline: inHours(10) },
    ];
    expect(byDeadline(orders).map((o) => o.id)).toEqual([3, 4, 5, 1, 2]);
    // the input is left as it was
    expect(orders.map((o) => o.id)).toEqual([1, 2, 3, 4, 5]);
  });
});
