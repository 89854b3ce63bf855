/**
 * The drawing half of BarChart: Chartist (a maintained SVG charting library, the smallest measured: see the
 * README's Reports section), loaded on demand by bar-chart.tsx so that no page but the charts' own fetches it.
 */
import { type BarChartOptions, BarChart as Chartist } from 'chartist';
import 'chartist/dist/index.css';
import './bar-chart.css';
import type { Bar } from './bar-chart';

export interface DrawOptions {
  height: number;
  format: (value: number) => string;
  /** No axes, no grid (the dashboard's small chart). */
  compact: boolean;
  /** Bars from the left, labels in a column (top matches: long names). */
  horizontal: boolean;
}

/** The most labels the category axis of a vertical chart shows (every n-th bar's label). */
const MOST_LABELS = 5;

function optionsOf(bars: readonly Bar[], o: DrawOptions): BarChartOptions {
  const every = Math.max(1, Math.ceil(bars.length / MOST_LABELS));
  // an axis tick is a round amount: its '.00' says nothing there (the table and the titles keep it)
  const money = (value: string | number | Date) => o.format(Number(value)).replace(/\.00$/, '');
  const values = {
    showGrid: !o.compact,
    showLabel: !o.compact,
    onlyInteger: true,
    scaleMinSpace: o.horizontal ? 72 : 32,
    labelInterpolationFnc: money,
  };
  const labels = { showGrid: false, showLabel: !o.compact };
  return {
    height: `${o.height}px`,
    low: 0,
    horizontalBars: o.horizontal,
    // a horizontal chart draws the first bar at the bottom: reversed, the first (highest) is on top
    reverseData: o.horizontal,
    // a horizontal chart's last value label is centred on its right edge: room for its half ('£2,000')
    chartPadding: o.compact
      ? { top: 2, right: 0, bottom: 0, left: 0 }
      : { top: 16, right: o.horizontal ? 48 : 24, bottom: 0, left: 0 },
    axisX: o.horizontal
      ? // Chartist starts a value label at its tick: moved back half a step it is centred on it, and the last one
        // stays within the padding on the right
        { ...values, offset: 24, labelOffset: { x: -20, y: 0 } }
      : {
          ...labels,
          offset: o.compact ? 0 : 24,
          labelInterpolationFnc: (label, i) => (i % every === 0 ? label : null),
        },
    axisY: o.horizontal ? { ...labels, offset: 160 } : { ...values, offset: o.compact ? 0 : 80 },
  };
}

/** Draws `bars` into `el` (which it owns until `destroy`); redraws when the element's size changes. */
export function drawBars(el: HTMLElement, bars: readonly Bar[], o: DrawOptions) {
  const chart = new Chartist(
    el,
    { labels: bars.map((b) => b.label), series: [bars.map((b) => ({ value: b.value, meta: b.label }))] },
    optionsOf(bars, o),
  );
  chart.on('draw', (d) => {
    if (d.type !== 'bar') return;
    // Chartist draws a bar as a line: its width is the stroke, a share of the space each bar has
    const room = (o.horizontal ? d.chartRect.height() : d.chartRect.width()) / Math.max(1, bars.length);
    const point = d.value as number | { x?: number; y?: number };
    const value = typeof point === 'number' ? point : Number((o.horizontal ? point.x : point.y) ?? 0);
    d.element.attr({ style: `stroke-width: ${Math.max(1, Math.min(48, room * 0.7)).toFixed(1)}px` });
    d.element.elem('title').text(`${d.meta}: ${o.format(value)}`);
  });
  const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(() => chart.update()) : null;
  resized?.observe(el);
  return {
    destroy() {
      resized?.disconnect();
      chart.detach();
      el.replaceChildren();
    },
  };
}
