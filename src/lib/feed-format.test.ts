import { describe, expect, it } from 'vitest';
import { activityTone, humanizeName } from './feed-format';

describe('notification rendering rules', () => {
  it('turns underscores into spaces and capitalises', () => {
    expect(humanizeName('new_order_received')).toBe('New Order Received');
    expect(humanizeName('payout')).toBe('Payout');
    expect(humanizeName('__odd__name_')).toBe('Odd Name');
  });

  it('colours activity by type', () => {
    expect(activityTone('logged_in')).toBe('success');
    expect(activityTone('logged_out')).toBe('danger');
    expect(activityTone('price_updated')).toBe('neutral');
  });
});
