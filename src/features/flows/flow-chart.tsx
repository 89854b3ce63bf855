import {
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useEffect,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../ui/button';
import type { FlowView } from './flow-data';

// The statechart drawn from its exported layout (ELK placed every box and arrow at export time): boxes nested
// as the states are, arrows labelled with their events and guards, the active states of the live actor marked.
// Pan by dragging or with the arrow keys, zoom with the wheel, the buttons or + and -, 0 fits it again.

interface ViewBox {
  x: number;
  y: number;
  scale: number;
}

const MARGIN = 16;
const MIN_SCALE = 0.2;
const MAX_SCALE = 4;

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

export function FlowChart({ view, active }: { view: FlowView; active: ReadonlySet<string> }) {
  const frame = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<ViewBox>({ x: -MARGIN, y: -MARGIN, scale: 1 });
  const [size, setSize] = useState({ width: 800, height: 500 });
  const drag = useRef<{ x: number; y: number; from: ViewBox } | null>(null);

  const fitToFrame = useCallback(() => {
    const el = frame.current;
    if (!el) return;
    const width = el.clientWidth || 800;
    const height = Math.max(
      320,
      Math.min(window.innerHeight * 0.7, (view.height + 2 * MARGIN) * (width / (view.width + 2 * MARGIN))),
    );
    setSize({ width, height });
    const scale = clampScale(Math.min(width / (view.width + 2 * MARGIN), height / (view.height + 2 * MARGIN)));
    setBox({ x: -MARGIN, y: -MARGIN, scale });
  }, [view]);

  useEffect(() => {
    fitToFrame();
    const el = frame.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => fitToFrame());
    observer.observe(el);
    return () => observer.disconnect();
  }, [fitToFrame]);

  const zoom = (factor: number, at?: { x: number; y: number }) =>
    setBox((b) => {
      const scale = clampScale(b.scale * factor);
      // keep the point under the pointer (or the middle) where it is
      const px = at?.x ?? size.width / 2;
      const py = at?.y ?? size.height / 2;
      const cx = b.x + px / b.scale;
      const cy = b.y + py / b.scale;
      return { scale, x: cx - px / scale, y: cy - py / scale };
    });
  const pan = (dx: number, dy: number) => setBox((b) => ({ ...b, x: b.x + dx / b.scale, y: b.y + dy / b.scale }));

  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, { x: e.clientX - rect.left, y: e.clientY - rect.top });
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, from: box };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    setBox({
      ...d.from,
      x: d.from.x - (e.clientX - d.x) / d.from.scale,
      y: d.from.y - (e.clientY - d.y) / d.from.scale,
    });
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = 60;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => pan(-step, 0),
      ArrowRight: () => pan(step, 0),
      ArrowUp: () => pan(0, -step),
      ArrowDown: () => pan(0, step),
      '+': () => zoom(1.25),
      '=': () => zoom(1.25),
      '-': () => zoom(1 / 1.25),
      '0': fitToFrame,
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };

  const viewBox = `${box.x} ${box.y} ${size.width / box.scale} ${size.height / box.scale}`;
  const byDepth = [...view.nodes].sort(
    (a, b) => a.path.split('.').length - b.path.split('.').length || (a.path === '' ? -1 : 0),
  );

  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <div role="toolbar" aria-label="Chart" className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button tone="secondary" onClick={() => zoom(1.25)}>
          Zoom in
        </Button>
        <Button tone="secondary" onClick={() => zoom(1 / 1.25)}>
          Zoom out
        </Button>
        <Button tone="secondary" onClick={fitToFrame}>
          Fit
        </Button>
        <span className={css({ color: 'fg.muted', fontSize: 'sm', alignSelf: 'center' })}>
          {Math.round(box.scale * 100)}%
        </span>
      </div>
      <div
        ref={frame}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart is a widget: it pans and zooms with the keyboard
        tabIndex={0}
        aria-label={`Statechart of ${view.id}: drag or use the arrow keys to pan, + and - to zoom, 0 to fit`}
        role="application"
        aria-roledescription="statechart"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        className={css({
          border: '1px solid',
          borderColor: 'border',
          borderRadius: 'md',
          bg: 'bg.subtle',
          overflow: 'hidden',
          cursor: 'grab',
          touchAction: 'none',
          _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
        })}
        style={{ height: size.height }}
      >
        <svg
          width={size.width}
          height={size.height}
          viewBox={viewBox}
          aria-hidden="true"
          className={css({ display: 'block', fontFamily: 'mono', userSelect: 'none' })}
        >
          <defs>
            <marker
              id="flow-arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto"
            >
              <path d="M0,0 L10,5 L0,10 z" fill="#475569" />
            </marker>
          </defs>
          {byDepth.map((n) => {
            const on = active.has(n.path);
            return (
              <g key={n.path || '(root)'} data-path={n.path} data-active={on ? 'true' : undefined}>
                <rect
                  x={n.x}
                  y={n.y}
                  width={n.width}
                  height={n.height}
                  rx={8}
                  fill={on ? '#dbeafe' : n.path === '' ? '#f8fafc' : '#ffffff'}
                  stroke={on ? '#1d4ed8' : n.type === 'final' ? '#0f172a' : '#94a3b8'}
                  strokeWidth={on ? 3 : n.type === 'final' ? 2.5 : 1.2}
                  strokeDasharray={n.type === 'history' ? '4 3' : undefined}
                />
                {n.initial ? <circle cx={n.x + 8} cy={n.y + 8} r={4} fill="#0f172a" /> : null}
                <text x={n.x + 16} y={n.y + 20} fontSize={12} fontWeight={700} fill="#0f172a">
                  {n.key}
                  {n.type === 'parallel' ? ' (parallel)' : n.type === 'final' ? ' (final)' : ''}
                </text>
                {n.lines.map((line, i) => (
                  <text key={line} x={n.x + 10} y={n.y + 38 + i * 15} fontSize={11} fill="#334155">
                    {line}
                  </text>
                ))}
              </g>
            );
          })}
          {view.edges.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: arrows have no id of their own; the list never reorders
            <g key={i}>
              <polyline
                points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
                fill="none"
                stroke="#475569"
                strokeWidth={1.2}
                markerEnd="url(#flow-arrow)"
              />
              <rect
                x={e.labelAt.x}
                y={e.labelAt.y}
                width={e.labelAt.width}
                height={e.labelAt.height}
                fill="#f8fafc"
                opacity={0.85}
              />
              <text x={e.labelAt.x + 3} y={e.labelAt.y + 11} fontSize={11} fill="#1e293b">
                {e.label}
              </text>
            </g>
          ))}
        </svg>
      </div>
    </div>
  );
}
