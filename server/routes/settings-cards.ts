import type { Router } from '../contract/router';
import { sellerIdOf } from '../domain/sales';
import { HttpError } from '../http/errors';

export const CARD_NOT_FOUND = 'This card is not one of your stored cards.';

/** Settings › Stored Cards (issue 13): remove a stored card of the seller the caller works for. */
export function settingsCardRoutes({ route }: Router) {
  route('/settings/lmt-pay/remove-card', 'post', async ({ user, body }, { db }) => {
    // one conditional delete scoped to the owner: another owner's id removes nothing and answers 404
    const removed = await db
      .deleteFrom('stored_cards')
      .where('id', '=', body.card_id)
      .where('owner_id', '=', sellerIdOf(user))
      .executeTakeFirst();
    if (Number(removed.numDeletedRows ?? 0) === 0) throw new HttpError(404, CARD_NOT_FOUND);
    return { status: 200, body: { success: true, message: 'Card removed.', data: { removed_id: body.card_id } } };
  });
}
