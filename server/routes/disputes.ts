import type { Router } from '../contract/router';
import { disputePage, findDispute, openClaim, resolveDispute } from '../domain/disputes/claims';
import { disputePack } from '../domain/disputes/pack';
import { claimsOfOrders } from '../domain/disputes/rules';
import { metaOf } from '../domain/paging';
import { findOrder, ORDER_NOT_FOUND } from '../domain/sales/orders';
import { sellerIdOf } from '../domain/sales/totals';
import { HttpError } from '../http/errors';
import type { Payments } from '../payments/port';

/**
 * The proof vault's claims (docs/decisions/disputes.md): the buyer opens a claim on a booking, the seller sees it
 * on the sale and downloads the dispute pack, the back office works its queue and resolves each claim with a
 * refund, a replacement or a rejection.
 */
export function disputeRoutes({ route }: Router, payments: Payments) {
  route('/purchase/lmt-trade/bookings/{booking_id}/claim', 'post', async ({ user, params, body }, { db, clock }) => {
    const claim = await openClaim(db, sellerIdOf(user), params.booking_id, body, clock.now());
    return {
      status: 200,
      body: { success: true, message: 'Claim opened: the back office will look into it.', data: claim },
    };
  });

  route('/sales/order-dispute', 'get', async ({ user, query }, { db }) => {
    const o = await findOrder(db, sellerIdOf(user), query.booking_id);
    if (!o) throw new HttpError(404, ORDER_NOT_FOUND);
    const claim = (await claimsOfOrders(db, [o.id])).get(o.id) ?? null;
    return { status: 200, body: { success: true, data: { claim } } };
  });

  route('/sales/dispute-pack/{booking_id}', 'get', async ({ user, params }, { db, clock }) => ({
    status: 200,
    body: { success: true, data: await disputePack(db, sellerIdOf(user), params.booking_id, clock.now()) },
  }));

  route('/admin/disputes', 'get', async ({ query }, { db }) => {
    const perPage = 20;
    const page = query.page ?? 1;
    const { disputes, total } = await disputePage(db, query.status ?? 'open', {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      status: 200,
      body: { success: true, data: { disputes, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) } },
    };
  });

  route('/admin/disputes/{id}/pack', 'get', async ({ params }, { db, clock }) => {
    const claim = await findDispute(db, params.id);
    return { status: 200, body: { success: true, data: await disputePack(db, null, claim.booking_id, clock.now()) } };
  });

  route('/admin/disputes/{id}/resolve', 'post', async ({ user, params, body }, { db, clock }) => {
    const data = await resolveDispute(db, user, params.id, body, clock.now(), payments);
    const message =
      data.status === 'refunded' ? 'Claim upheld: the buyer is refunded.' : 'Claim upheld: the tickets are replaced.';
    return { status: 200, body: { success: true, message, data } };
  });

  route('/admin/disputes/{id}/reject', 'post', async ({ user, params, body }, { db, clock }) => {
    const data = await resolveDispute(
      db,
      user,
      params.id,
      { outcome: 'rejection', note: body.reason },
      clock.now(),
      payments,
    );
    return { status: 200, body: { success: true, message: 'Claim rejected.', data } };
  });
}
