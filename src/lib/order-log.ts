import { SALES_STATUS_LABELS, type SalesStatus } from '../../machines/sales-statuses';

/**
 * A row of an order's log as people read it, the same in Sales and in Report History: the action in words, and
 * the move between statuses when there was one ('accepted: Pending → Awaiting Delivery').
 */
export function orderLogTitle(log: { action: string; from_status: string | null; to_status: string | null }): string {
  const label = (status: string) => SALES_STATUS_LABELS[status as SalesStatus] ?? status;
  const moved = log.from_status && log.to_status && log.from_status !== log.to_status;
  return `${log.action.replaceAll('_', ' ')}${moved ? `: ${label(log.from_status as string)} → ${label(log.to_status as string)}` : ''}`;
}
