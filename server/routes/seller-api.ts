import type { Router } from '../contract/router';
import { sellerIdOf } from '../domain/sales/totals';
import {
  confirmHold,
  createHold,
  findHold,
  holdOf,
  listHolds,
  NO_SUCH_HOLD,
  releaseHold,
} from '../domain/seller-api/holds';
import { createApiToken, listApiTokens, revokeApiToken } from '../domain/seller-api/tokens';

/** The seller API: its tokens (Settings → API tokens, a session only) and the hold API for other channels. */
export function sellerApiRoutes({ route }: Router) {
  route('/settings/api-tokens', 'get', async ({ user }, { db, clock }) => {
    const api_tokens = await listApiTokens(db, user.id, clock.now());
    return { status: 200, body: { success: true, data: { api_tokens } } };
  });

  route('/settings/api-tokens', 'post', async ({ user, body }, { db, clock }) => {
    const data = await createApiToken(db, user.id, body, clock.now());
    return {
      status: 200,
      body: { success: true, message: 'API token created. Copy it now: it will not be shown again.', data },
    };
  });

  route('/settings/api-tokens/{id}/revoke', 'post', async ({ user, params }, { db, clock }) => {
    const token = await revokeApiToken(db, user.id, params.id, clock.now());
    if (!token) return { status: 404, body: { success: false, message: 'No such API token.' } };
    return { status: 200, body: { success: true, message: 'API token revoked.', data: token } };
  });

  route('/my-listings/holds', 'get', async ({ user }, { db, clock }) => {
    const now = clock.now();
    const holds = await listHolds(db, sellerOf(user));
    return { status: 200, body: { success: true, data: { holds: holds.map((h) => holdOf(h, now)) } } };
  });

  route('/my-listings/holds', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const hold = await createHold(db, sellerOf(user), body, now);
    return { status: 200, body: { success: true, message: 'Seats held.', data: holdOf(hold, now) } };
  });

  route('/my-listings/holds/{id}', 'get', async ({ user, params }, { db, clock }) => {
    const hold = await findHold(db, sellerOf(user), params.id);
    if (!hold) return { status: 404, body: { success: false, message: NO_SUCH_HOLD } };
    return { status: 200, body: { success: true, data: holdOf(hold, clock.now()) } };
  });

  route('/my-listings/holds/{id}/release', 'post', async ({ user, params }, { db, clock }) => {
    const now = clock.now();
    const hold = await releaseHold(db, sellerOf(user), params.id, now);
    return { status: 200, body: { success: true, message: 'Hold released.', data: holdOf(hold, now) } };
  });

  route('/my-listings/holds/{id}/confirm', 'post', async ({ user, params }, { db, clock }) => {
    const now = clock.now();
    const hold = await confirmHold(db, sellerOf(user), params.id, now);
    return { status: 200, body: { success: true, message: 'Hold confirmed as sold.', data: holdOf(hold, now) } };
  });
}

/** A team member with `event` holds for the seller it works for. */
const sellerOf = sellerIdOf;
