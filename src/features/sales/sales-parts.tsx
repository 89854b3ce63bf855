import { css } from 'styled-system/css';
import { Button } from '../../ui/button';

export const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});
export const muted = css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' });
export const heading = css({ fontSize: 'md', fontWeight: 'bold' });

export function Retry({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
      <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
      <Button tone="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
