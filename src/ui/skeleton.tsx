import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

const bone = css({
  display: 'block',
  bg: 'bg.muted',
  borderRadius: 'sm',
  animation: 'pulse',
  _motionReduce: { animation: 'none' },
});

const inlineBone = css({
  display: 'inline-block',
  verticalAlign: 'middle',
  bg: 'bg.muted',
  borderRadius: 'sm',
  animation: 'pulse',
  _motionReduce: { animation: 'none' },
});

/**
 * A grey placeholder shaped like the content that is loading. Hidden from readers: wrap it in `Loading`.
 * `inline` makes it sit in a line of text, so that the line keeps the height the text will have.
 */
export function Skeleton({
  width = '100%',
  height = '16px',
  radius,
  inline = false,
}: {
  width?: string | number;
  height?: string | number;
  radius?: 'sm' | 'md' | 'pill';
  inline?: boolean;
}) {
  return (
    <span
      aria-hidden="true"
      data-skeleton=""
      className={inline ? inlineBone : bone}
      style={{ width, height, borderRadius: radius ? `var(--radii-${radius})` : undefined }}
    />
  );
}

/**
 * The region pulses as one, and its bones do not pulse each on their own: an animation per bone made a
 * `animationstart` event per bone (React's root listener handled each: 60 on a loading dashboard, 9-24 ms of
 * its main thread, 36-96 ms at Lighthouse's 4x) and gave the compositor a layer per bone to commit.
 */
const loadingRegion = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  animation: 'pulse',
  _motionReduce: { animation: 'none' },
  '& [data-skeleton]': { animation: 'none' },
});

/** A loading region: tells readers what is loading while its skeletons show. */
export function Loading({ label = 'Loading', children }: { label?: string; children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" className={loadingRegion}>
      <span className={css({ srOnly: true })}>{label}</span>
      {children}
    </div>
  );
}
