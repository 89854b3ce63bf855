import { css, cx } from 'styled-system/css';
import { type DeadlineTone, deadlineText, deadlineTone, URGENCY_LABELS } from '../lib/deadline';
import { formatDate } from '../lib/format-date';

const badge: Record<Exclude<DeadlineTone, 'none'>, string> = {
  overdue: css({ bg: 'red.100', color: 'red.800' }),
  urgent: css({ bg: 'amber.100', color: 'amber.900' }),
  later: css({ bg: 'green.100', color: 'green.800' }),
};
const edge: Record<DeadlineTone, string> = {
  overdue: css({ borderLeftColor: 'danger' }),
  urgent: css({ borderLeftColor: 'warning' }),
  later: css({ borderLeftColor: 'success' }),
  none: css({ borderLeftColor: 'border' }),
};

/** 'Sun, 29 Nov 2026 14:00' in the reader's time zone. */
const when = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

/** The border colour of a row or card by its deadline's urgency (the badge says it in words). */
export const deadlineEdge = (tone: DeadlineTone) =>
  cx(css({ borderLeftWidth: '4px', borderLeftStyle: 'solid', pl: '2' }), edge[tone]);

/**
 * An order's next deadline, its urgency in a coloured badge that says it in words ('Overdue', 'Due within
 * 24 h', 'On track'), what is due and when ('Deliver by Sun, 29 Nov 2026 14:00') and how long is left ('Due in
 * 5 h'). `compact` says only the urgency and how long is left (the date in its title): the dashboard's short rows.
 */
export function Deadline({
  kind,
  at,
  now,
  compact = false,
}: {
  kind: 'accept' | 'deliver';
  at: string | null | undefined;
  now: number;
  compact?: boolean;
}) {
  const tone = deadlineTone(at, now);
  if (!at || tone === 'none') return <span className={css({ color: 'fg.muted' })}>-</span>;
  return (
    <span
      data-tone={tone}
      data-testid="deadline"
      className={css({ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: '1', minWidth: 0 })}
    >
      <span
        className={cx(
          css({
            px: '2',
            borderRadius: 'pill',
            fontSize: '11px',
            fontWeight: 'semibold',
            lineHeight: '18px',
            whiteSpace: 'nowrap',
          }),
          badge[tone],
        )}
      >
        {URGENCY_LABELS[tone]}
      </span>
      {compact ? (
        <span
          title={`${kind === 'accept' ? 'Accept by' : 'Deliver by'} ${when(at)}`}
          className={css({ fontSize: 'xs' })}
        >
          {deadlineText(at, now)}
        </span>
      ) : (
        <span className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
          {kind === 'accept' ? 'Accept by' : 'Deliver by'} <time dateTime={at}>{when(at)}</time> ·{' '}
          {deadlineText(at, now).replace(/^Due/, 'due')}
        </span>
      )}
    </span>
  );
}
