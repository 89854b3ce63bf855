import type { Router } from '../contract/router';
import { updateMyAccount } from '../domain/my-account';

/** Settings › My Account (issue 13): the caller edits its own details. */
export function settingsAccountRoutes({ route }: Router) {
  route('/settings/update-my-account', 'put', async ({ user, body }, { db }) => ({
    status: 200,
    body: { success: true, message: 'Your account details are saved.', data: await updateMyAccount(db, user, body) },
  }));
}
