/** An open order due this soon shows red in the delivery cockpit and the lists. */
export const URGENT_MS = 24 * 60 * 60 * 1000;
/** …and this soon, amber. */
export const SOON_MS = 72 * 60 * 60 * 1000;

/** How pressing an order's delivery deadline is: `overdue` and `urgent` show red, `soon` amber. */
export type DeadlineTone = 'overdue' | 'urgent' | 'soon' | 'later' | 'none';

/**
 * The cockpit's colour rule: past the deadline (overdue) or due within 24 hours (urgent) is red, within 72
 * hours amber (soon), anything later plain. No deadline, or one that cannot be read, is `none`.
 */
export function deadlineTone(deadline: string | null | undefined, now: number): DeadlineTone {
  if (!deadline) return 'none';
  const due = Date.parse(deadline);
  if (Number.isNaN(due)) return 'none';
  const left = due - now;
  if (left < 0) return 'overdue';
  if (left <= URGENT_MS) return 'urgent';
  if (left <= SOON_MS) return 'soon';
  return 'later';
}

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

/** Open orders by their deadline, soonest first; orders without one last, then by id for a stable order. */
export function byDeadline<T extends { id: number; deadline?: string | null }>(orders: readonly T[]): T[] {
  const key = (o: T) => {
    const due = o.deadline ? Date.parse(o.deadline) : Number.NaN;
    return Number.isNaN(due) ? Number.POSITIVE_INFINITY : due;
  };
  return [...orders].sort((a, b) => key(a) - key(b) || a.id - b.id);
}
