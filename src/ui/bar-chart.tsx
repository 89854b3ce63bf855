import { useEffect, useId, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { useNearViewport } from '../lib/use-near-viewport';
import { Skeleton } from './skeleton';

export interface Bar {
  /** What the bar is (a day, a week, a match): its label under the chart and in the table. */
  label: string;
  value: number;
}

type Drawing = typeof import('./bar-chart-draw');
let library: Promise<Drawing> | null = null;
/** Chartist and its stylesheet, fetched once, by the first chart shown (never by the pages without one). */
function loadLibrary(): Promise<Drawing> {
  library ??= import('./bar-chart-draw').catch((error: unknown) => {
    library = null; // a later chart tries again
    throw error;
  });
  return library;
}

/**
 * A bar chart drawn by Chartist (loaded on demand: see the README's Reports section), with an accessible name
 * that summarises the data, and the same data as a table under a disclosure ("Show as table"): screen readers
 * and keyboard users read the table; the drawing itself is one labelled image. While the library loads, a
 * placeholder of the chart's height holds its place (no layout shift); the name and the table need no library.
 */
export function BarChart({
  title,
  bars,
  format,
  height = 180,
  valueHeading = 'Value',
  labelHeading = 'Label',
  compact = false,
  horizontal = false,
}: {
  title: string;
  bars: readonly Bar[];
  format: (value: number) => string;
  height?: number;
  valueHeading?: string;
  labelHeading?: string;
  /** A small chart (the dashboard): no axis labels, no table. */
  compact?: boolean;
  /** Bars from the left with their labels in a column (long labels: match names). */
  horizontal?: boolean;
}) {
  const id = useId();
  const target = useRef<HTMLDivElement>(null);
  // drawn as it comes near the viewport, not while the page loads (the dashboard's, at the foot of a phone's
  // page, took a task of 20 ms on this machine as the page opened)
  const near = useNearViewport(target);
  const [drawing, setDrawing] = useState<'loading' | 'drawn' | 'failed'>('loading');
  // the callers build `bars` and `format` anew on each render: the chart is redrawn when the data changes
  const formatRef = useRef(format);
  formatRef.current = format;
  const data = JSON.stringify(bars);

  useEffect(() => {
    const el = target.current;
    if (!el || !near) return;
    let live = true;
    let drawn: { destroy(): void } | null = null;
    loadLibrary().then(
      ({ drawBars }) => {
        if (!live) return;
        drawn = drawBars(el, JSON.parse(data) as Bar[], {
          height,
          compact,
          horizontal,
          format: (v) => formatRef.current(v),
        });
        setDrawing('drawn');
      },
      (error: unknown) => {
        console.error('The chart library could not be loaded', error);
        if (live) setDrawing('failed');
      },
    );
    return () => {
      live = false;
      drawn?.destroy();
    };
  }, [near, data, height, compact, horizontal]);

  const total = bars.reduce((n, b) => n + b.value, 0);
  const top = bars.reduce<Bar | null>((best, b) => (best === null || b.value > best.value ? b : best), null);
  const summary =
    bars.length === 0
      ? `${title}: no data.`
      : `${title}: ${bars.length} bars, total ${format(total)}${top && top.value > 0 ? `, highest ${top.label} at ${format(top.value)}` : ''}.`;
  return (
    <figure className={css({ display: 'grid', gap: '2', m: 0, minWidth: 0 })}>
      {!compact && <figcaption className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>{title}</figcaption>}
      <div
        role="img"
        aria-labelledby={`${id}-summary`}
        aria-busy={near && drawing === 'loading'}
        data-chart={near ? drawing : 'waiting'}
        className={css({ position: 'relative', width: '100%', minWidth: 0 })}
        style={{ height: `${height}px` }}
      >
        <span id={`${id}-summary`} hidden>
          {summary}
        </span>
        <div ref={target} aria-hidden="true" className={`sb-chart ${css({ position: 'absolute', inset: 0 })}`} />
        {drawing === 'loading' && <Skeleton width="100%" height={`${height}px`} />}
        {drawing === 'failed' && (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            The chart could not be loaded{compact ? '.' : ': its figures are under "Show as table".'}
          </p>
        )}
      </div>
      {!compact && (
        <details>
          <summary className={css({ cursor: 'pointer', fontSize: 'sm' })}>Show as table</summary>
          <table
            className={css({
              width: '100%',
              tableLayout: 'fixed',
              fontSize: 'sm',
              mt: '2',
              '& td': { overflowWrap: 'anywhere' },
            })}
          >
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
