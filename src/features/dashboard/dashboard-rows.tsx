import { css } from 'styled-system/css';
import { Skeleton } from '../../ui/skeleton';

// The dashboard's list rows and their loading placeholders, shaped alike so a widget is as high loading as loaded.

/**
 * Placeholder rows shaped like the lists' rows: each line keeps the height of a line of their text (a bone
 * sits in it like a word), so the list is as high loading as loaded.
 */
export function SkeletonRows({ count, lines, side = true }: { count: number; lines: 1 | 2; side?: boolean }) {
  return (
    <ul aria-hidden="true" className={rowList}>
      {Array.from({ length: count }, (_, i) => `row-${i}`).map((key, i) => (
        <li key={key} className={row}>
          <span className={css({ flex: 1, minWidth: 0 })}>
            <span className={css({ display: 'block' })}>
              <Skeleton inline width={`${60 + ((i * 17) % 30)}%`} height="0.85em" />
            </span>
            {lines === 2 ? (
              <span className={css({ display: 'block', fontSize: 'xs' })}>
                <Skeleton inline width="45%" height="0.75em" />
              </span>
            ) : null}
          </span>
          {side ? <Skeleton inline width="4.5rem" height="0.85em" /> : null}
        </li>
      ))}
    </ul>
  );
}

/** A line of text's height holding a bone: the link under a list. */
export function SkeletonLine({ width }: { width: string }) {
  return (
    <span aria-hidden="true" className={css({ display: 'block', fontSize: 'sm' })}>
      <Skeleton inline width={width} height="0.85em" />
    </span>
  );
}
export const rowList = css({
  listStyle: 'none',
  m: 0,
  p: 0,
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '2',
});
export const row = css({
  display: 'flex',
  justifyContent: 'space-between',
  gap: '3',
  fontSize: 'sm',
  alignItems: 'baseline',
  overflowWrap: 'anywhere',
});
