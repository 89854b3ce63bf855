import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={css({ display: 'flex', gap: '3', py: '1.5', borderBottom: '1px solid {colors.border}' })}>
      <dt className={css({ width: '9rem', flexShrink: 0, color: 'fg.muted', fontSize: 'sm' })}>{label}</dt>
      <dd className={css({ flex: 1, minWidth: 0, overflowWrap: 'anywhere' })}>{children}</dd>
    </div>
  );
}
