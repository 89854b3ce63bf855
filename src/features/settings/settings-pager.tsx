import { css } from 'styled-system/css';
import { Button } from '../../ui/button';

/** Previous and Next under a settings list paged by number (plain buttons: Tab and Enter reach them). */
export function SettingsPager({
  label,
  page,
  lastPage,
  busy,
  onPage,
}: {
  label: string;
  page: number;
  lastPage: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  if (lastPage <= 1) return null;
  return (
    <nav
      aria-label={label}
      className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap' })}
    >
      <Button tone="secondary" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite">
        Page {page} of {lastPage}
      </span>
      <Button tone="secondary" disabled={busy || page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
