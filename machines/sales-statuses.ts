import { type components, orderStatusValues } from '../openapi/schema';

export type SalesStatus = components['schemas']['OrderStatus'];

/** The spec's names of the sales sub-pages (sales/confirmed is 'Awaiting Delivery'). */
export const SALES_STATUS_LABELS: Readonly<Record<SalesStatus, string>> = {
  pending: 'Pending',
  confirmed: 'Awaiting Delivery',
  delivered: 'Delivered',
  completed: 'Completed',
  cancelled: 'Cancelled',
  replaced: 'Replaced',
};

/** The sales sub-pages in menu order (the contract's order of the statuses), with their labels. */
export const SALES_STATUSES: ReadonlyArray<{ status: SalesStatus; label: string }> = orderStatusValues.map(
  (status) => ({ status, label: SALES_STATUS_LABELS[status] }),
);
