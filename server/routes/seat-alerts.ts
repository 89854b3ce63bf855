import type { Router } from '../contract/router';
import { createAlert, deleteAlert, listAlerts } from '../domain/alerts/alerts';
import { sellerIdOf } from '../domain/sales/totals';

/**
 * Seat and price alerts (x-permission lmt-trade): a buyer saves what they want, and the matching
 * (server/domain/alerts/matcher.ts, run by the housekeeping) holds the seats that fit for them.
 */
export function seatAlertRoutes({ route }: Router) {
  route('/purchase/alerts', 'get', async ({ user }, { db, clock }) => {
    const alerts = await listAlerts(db, sellerIdOf(user), clock.now());
    return { status: 200, body: { success: true, data: { alerts } } };
  });

  route('/purchase/alerts', 'post', async ({ user, body }, { db, clock }) => {
    const alert = await createAlert(
      db,
      {
        buyerId: sellerIdOf(user),
        userId: user.id,
        eventId: body.event_id,
        quantity: body.quantity,
        category: body.category ?? null,
        blocks: body.blocks ?? [],
        maxPrice: body.max_price,
        currency: body.currency,
        byMail: body.by_mail ?? false,
      },
      clock.now(),
    );
    return { status: 200, body: { success: true, message: 'Seat alert saved.', data: alert } };
  });

  route('/purchase/alerts/{id}/delete', 'post', async ({ user, params }, { db }) => {
    await deleteAlert(db, sellerIdOf(user), params.id);
    return { status: 200, body: { success: true, message: 'Seat alert deleted.', data: { removed_id: params.id } } };
  });
}
