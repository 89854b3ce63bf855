import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';

export function Pager({
  page,
  lastPage,
  onPage,
  label,
}: {
  page: number;
  lastPage: number;
  onPage: (p: number) => void;
  label: string;
}) {
  return (
    <nav
      aria-label={`${label} pages`}
      className={css({ display: 'flex', alignItems: 'center', gap: '2', justifyContent: 'flex-end' })}
    >
      <Button tone="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={css({ fontSize: 'sm' })}>
        Page {Math.max(page, 1)} of {lastPage}
      </span>
      <Button tone="secondary" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
