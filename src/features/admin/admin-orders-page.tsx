import { type AdminOrder, orderQueueMachine } from '../../../machines/admin/queues';
import { formatMoney } from '../../lib/money';
import { dateTime, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const amountOf = (o: AdminOrder) => formatMoney({ minor: o.amount, currency: o.currency });

const view: QueueView<AdminOrder> = {
  key: 'adminOrders',
  heading: 'Orders past their delivery deadline',
  noun: 'the orders',
  empty: 'No order needs action.',
  keyOf: (o) => o.id,
  rowLabel: (o) => `Order ${o.booking_no}`,
  columns: [
    { header: 'Order', cell: (o) => <TwoLines main={o.booking_no} sub={o.match_name} /> },
    { header: 'Seller', cell: (o) => <TwoLines main={o.seller_name} sub={o.seller_email} /> },
    { header: 'Amount', nowrap: true, cell: amountOf },
    { header: 'Delivered', cell: (o) => `${o.delivered} of ${o.quantity}` },
    { header: 'Deliver by', cell: (o) => dateTime(o.deliver_by) },
  ],
  approve: {
    label: 'Cancel and refund',
    name: (o) => `Cancel and refund ${o.booking_no}`,
    title: (o) => `Cancel order ${o.booking_no}?`,
    restates: (o) => (
      <p>
        The buyer is refunded <strong>{amountOf(o)}</strong>, the tickets go back to the listing and {o.seller_name}'s
        sale ends. This cannot be undone.
      </p>
    ),
    fields: [{ name: 'reason', label: 'Reason (the seller and the buyer read it)', kind: 'reason' }],
    confirmLabel: (o) => `Refund ${amountOf(o)}`,
  },
  reject: {
    label: 'Replace',
    name: (o) => `Replace the tickets of ${o.booking_no}`,
    title: (o) => `Replace the tickets of ${o.booking_no}`,
    reasonLabel: 'Reason (the seller reads it)',
    submitLabel: 'Replace',
  },
};

/** /admin/orders: confirmed orders past their delivery deadline, the oldest first: cancel and refund, or replace. */
export default function AdminOrdersPage() {
  return <QueuePage machine={orderQueueMachine} view={view} />;
}
