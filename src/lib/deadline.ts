/** An open order due this soon is urgent (amber); past its deadline it is overdue (red). */
export const URGENT_MS = 24 * 60 * 60 * 1000;

/** How pressing an order's next deadline is: overdue, due within 24 hours (urgent), or later. */
export type DeadlineTone = 'overdue' | 'urgent' | 'later' | 'none';

/**
 * The urgency rule of the sales lists, the delivery cockpit, the drawer and the dashboard: past the deadline is
 * overdue, within 24 hours urgent, anything after that later. No deadline, or one that cannot be read, is `none`.
 */
export function deadlineTone(deadline: string | null | undefined, now: number): DeadlineTone {
  if (!deadline) return 'none';
  const due = Date.parse(deadline);
  if (Number.isNaN(due)) return 'none';
  const left = due - now;
  if (left < 0) return 'overdue';
  if (left <= URGENT_MS) return 'urgent';
  return 'later';
}

/** The urgency in words, beside its colour (colour is never the only signal). */
export const URGENCY_LABELS: Readonly<Record<Exclude<DeadlineTone, 'none'>, string>> = {
  overdue: 'Overdue',
  urgent: 'Due within 24 h',
  later: 'On track',
};

/** What a deadline says in words: 'Overdue by 3 h', 'Due in 5 h', 'Due in 2 days'. */
export function deadlineText(deadline: string | null | undefined, now: number): string {
  if (!deadline) return '';
  const due = Date.parse(deadline);
  if (Number.isNaN(due)) return '';
  const hours = Math.floor(Math.abs(due - now) / 3_600_000);
  const span = hours < 48 ? `${Math.max(hours, 0)} h` : `${Math.floor(hours / 24)} days`;
  if (due < now) return `Overdue by ${hours < 1 ? 'less than 1 h' : span}`;
  return `Due in ${hours < 1 ? 'less than 1 h' : span}`;
}

/** An order's next deadline: accepting it while pending, delivering it while awaiting delivery; else none. */
export function nextDeadline(o: {
  status: string;
  accept_by?: string | null;
  deliver_by?: string | null;
}): { kind: 'accept' | 'deliver'; at: string } | null {
  if (o.status === 'pending' && o.accept_by) return { kind: 'accept', at: o.accept_by };
  if ((o.status === 'pending' || o.status === 'confirmed') && o.deliver_by)
    return { kind: 'deliver', at: o.deliver_by };
  return null;
}

/** Open orders by their deadline, soonest first; orders without one last, then by id for a stable order. */
export function byDeadline<T extends { id: number; deadline?: string | null }>(orders: readonly T[]): T[] {
  const key = (o: T) => {
    const due = o.deadline ? Date.parse(o.deadline) : Number.NaN;
    return Number.isNaN(due) ? Number.POSITIVE_INFINITY : due;
  };
  return [...orders].sort((a, b) => key(a) - key(b) || a.id - b.id);
}
