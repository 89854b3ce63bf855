import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';

export type Tone = 'success' | 'danger' | 'neutral';

const tones: Record<Tone, string> = {
  success: css({ bg: 'green.100', color: 'green.800' }),
  danger: css({ bg: 'red.100', color: 'red.800' }),
  neutral: css({ bg: 'bg.muted', color: 'ink.700' }),
};

/** A small coloured label: an activity's type, a 'New' tag. One line, cut with an ellipsis if it is too long. */
export function ToneBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span
      title={typeof children === 'string' ? children : undefined}
      className={cx(
        css({
          display: 'inline-block',
          px: '2',
          borderRadius: 'pill',
          fontSize: '11px',
          fontWeight: 'semibold',
          lineHeight: '18px',
          whiteSpace: 'nowrap',
          maxWidth: '100%',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          verticalAlign: 'middle',
        }),
        tones[tone],
      )}
    >
      {children}
    </span>
  );
}
