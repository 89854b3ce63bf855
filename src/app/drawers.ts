import { lazy } from 'react';

/**
 * The drawers one area opens for another. Features do not import each other, so the shell says where each
 * drawer comes from; its code loads when it first opens. The purchase panel's Deposit button opens the
 * wallet's top-up drawer.
 */
export const drawers = {
  topUp: lazy(() => import('../features/wallet/top-up-drawer').then((m) => ({ default: m.TopUpDrawer }))),
};
