import { describe, expect, it } from 'vitest';
import { orderLogTitle } from './order-log';

describe('orderLogTitle (Sales and Report History word a log row alike)', () => {
  it('says the action in words and the move between statuses, only when the status moved', () => {
    expect(orderLogTitle({ action: 'accepted', from_status: 'pending', to_status: 'confirmed' })).toBe(
      'accepted: Pending → Awaiting Delivery',
    );
    expect(orderLogTitle({ action: 'ticket_type_changed', from_status: 'pending', to_status: 'pending' })).toBe(
      'ticket type changed',
    );
    expect(orderLogTitle({ action: 'created', from_status: null, to_status: 'pending' })).toBe('created');
  });
});
