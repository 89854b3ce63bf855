import type { Db } from '../db/database';

/**
 * Rejects a seller's pending deposit requests directly, for tests that send more than a seller may keep pending
 * (QUOTAS['pending-deposits']).
 */
export const decidePending = (db: Db, email = 'seller@demo.test') =>
  db
    .updateTable('deposits')
    .set({ status: 'rejected', rejection_reason: 'Decided by the test' })
    .where('status', '=', 'pending')
    .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('email', '=', email))
    .execute();
