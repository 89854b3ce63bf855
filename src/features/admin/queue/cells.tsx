import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { formatDate } from '../../../lib/format-date';

export const muted = css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' });

/** '28 Nov 2026 14:05': when an item arrived. */
export const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

/** A main line and a muted one under it (a name and its email). */
export function TwoLines({ main, sub }: { main: ReactNode; sub?: ReactNode }) {
  return (
    <>
      {main}
      {sub ? <div className={muted}>{sub}</div> : null}
    </>
  );
}
