import { useId } from 'react';
import { css } from 'styled-system/css';

export interface Bar {
  /** What the bar is (a day, a week, a match): its label under the chart and in the table. */
  label: string;
  value: number;
}

/**
 * A bar chart drawn as SVG (no chart library: see the README's Reports section), with an accessible name and
 * summary, and the same data as a table under a disclosure ("Show as table"): screen readers and keyboard users
 * read the table; the drawing itself is one labelled image.
 */
export function BarChart({
  title,
  bars,
  format,
  height = 180,
  valueHeading = 'Value',
  labelHeading = 'Label',
  compact = false,
}: {
  title: string;
  bars: readonly Bar[];
  format: (value: number) => string;
  height?: number;
  valueHeading?: string;
  labelHeading?: string;
  /** A small chart (the dashboard): no axis labels, no table. */
  compact?: boolean;
}) {
  const id = useId();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = 600;
  const gap = bars.length > 40 ? 1 : 2;
  const barWidth = bars.length > 0 ? Math.max(1, width / bars.length - gap) : 0;
  const total = bars.reduce((n, b) => n + b.value, 0);
  const top = bars.reduce<Bar | null>((best, b) => (best === null || b.value > best.value ? b : best), null);
  const summary =
    bars.length === 0
      ? `${title}: no data.`
      : `${title}: ${bars.length} bars, total ${format(total)}${top && top.value > 0 ? `, highest ${top.label} at ${format(top.value)}` : ''}.`;
  return (
    <figure className={css({ display: 'grid', gap: '2', m: 0, minWidth: 0 })}>
      {!compact && <figcaption className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>{title}</figcaption>}
      <svg
        role="img"
        aria-labelledby={`${id}-summary`}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        className={css({ width: '100%', height: `${height}px`, display: 'block' })}
      >
        <title id={`${id}-summary`}>{summary}</title>
        {bars.map((b, i) => {
          const h = (b.value / max) * (height - 4);
          return (
            <rect
              key={b.label}
              x={i * (barWidth + gap)}
              y={height - h}
              width={barWidth}
              height={h}
              rx={1}
              className={css({ fill: 'accent' })}
            >
              <title>{`${b.label}: ${format(b.value)}`}</title>
            </rect>
          );
        })}
      </svg>
      {!compact && bars.length > 0 && (
        <div
          className={css({ display: 'flex', justifyContent: 'space-between', fontSize: 'xs', color: 'fg.muted' })}
          aria-hidden="true"
        >
          <span>{bars[0]?.label}</span>
          <span>{bars.at(-1)?.label}</span>
        </div>
      )}
      {!compact && (
        <details>
          <summary className={css({ cursor: 'pointer', fontSize: 'sm' })}>Show as table</summary>
          <table className={css({ width: '100%', fontSize: 'sm', mt: '2' })}>
            <caption className={css({ srOnly: true })}>{title}</caption>
            <thead>
              <tr>
                <th scope="col" className={css({ textAlign: 'left' })}>
                  {labelHeading}
                </th>
                <th scope="col" className={css({ textAlign: 'right' })}>
                  {valueHeading}
                </th>
              </tr>
            </thead>
            <tbody>
              {bars.map((b) => (
                <tr key={b.label}>
                  <td>{b.label}</td>
                  <td className={css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' })}>{format(b.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
}
