import type { Router } from '../contract/router';
import { figuresByStatus, sellerIdOf } from '../domain/sales';

export function salesRoutes({ route }: Router) {
  route('/sales/sales-count', 'get', async ({ user }, { db }) => {
    const figures = await figuresByStatus(db, sellerIdOf(user));
    return { status: 200, body: { success: true, data: figures.map(({ status, orders }) => ({ status, orders })) } };
  });
}
