import type { HTMLAttributes, ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { Button } from './button';
import { Loading, Skeleton } from './skeleton';

/**
 * How a column shows on a phone, where each row is a card: `title` heads the card (bold, no label), `field` is a
 * line of its own named by the column's heading (the default), `plain` a line without the heading, `actions` the
 * card's foot (its buttons side by side), `hidden` not on the card (a detail the row's own view shows).
 */
export type CardPart = 'title' | 'field' | 'plain' | 'actions' | 'hidden';

export interface ListColumn<T> {
  /** The heading; on a phone card the name in front of the value. */
  header: string;
  /** What the heading cell shows instead of the text (a select-all box); the text stays its name. */
  headerCell?: ReactNode;
  /** The heading only screen readers read (an actions column). */
  srHeader?: boolean;
  cell: (row: T) => ReactNode;
  card?: CardPart;
  nowrap?: boolean;
  numeric?: boolean;
}

/** What a list shows: its skeleton, the error with Retry, the empty text, or the rows. */
export type ListStatus = 'loading' | 'failed' | 'empty' | 'shown';

/** A list machine's snapshot read as a status: the first page loading, failed, empty, or shown. */
export function listStatus(
  // biome-ignore lint/suspicious/noExplicitAny: any list machine's snapshot
  s: { matches: (v: any) => boolean; hasTag: (t: any) => boolean } | undefined,
): ListStatus {
  if (!s || s.hasTag('loadingFirst')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('empty')) return 'empty';
  return 'shown';
}

export const listCard = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  // minmax(0, 1fr): a wide table scrolls inside its card instead of widening the page
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  // a long unbroken value (a name, a booking note) breaks inside its cell instead of widening the table
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top', overflowWrap: 'anywhere' },
  '& [data-nowrap]': { whiteSpace: 'nowrap' },
  '& [data-numeric]': { fontVariantNumeric: 'tabular-nums' },
  // on a phone each row is a compact card: its title, its key fields one a line, its actions at the foot
  _phone: {
    display: 'block',
    '& thead': { srOnly: true },
    '& tbody': { display: 'grid', gap: '2' },
    '& tr': {
      display: 'grid',
      gridTemplateColumns: 'minmax(0, 1fr)',
      gap: '0.5',
      p: '3',
      border: '1px solid {colors.border}',
      borderRadius: 'md',
      overflowWrap: 'anywhere',
    },
    '& td': { display: 'block', border: 'none', p: '0', minWidth: 0 },
    '& td[data-card=hidden]': { display: 'none' },
    '& td[data-card=title]': { fontWeight: 'semibold', fontSize: 'md' },
    '& td[data-card=field][data-label]::before': { content: 'attr(data-label) ": "', color: 'fg.muted' },
    '& td[data-card=actions]': { mt: '1' },
    '& td[data-card=actions] > *': { display: 'flex', flexWrap: 'wrap', gap: '2' },
    '& [data-nowrap]': { whiteSpace: 'normal' },
  },
});

type RowProps = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };

export interface ListTableProps<T> {
  /** The table's name for screen readers. */
  label: string;
  columns: readonly ListColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** What each row carries besides its cells (its name, a test id, a tone). */
  rowProps?: (row: T) => RowProps;
}

/**
 * The rows of a list: a table on a wide screen; on a phone (768 px and under) each row a compact card of its key
 * fields and actions, nothing wider than the screen. One markup for both, so a screen reader and a test find
 * the same rows and buttons at any width.
 */
export function ListTable<T>({ label, columns, rows, rowKey, rowProps }: ListTableProps<T>) {
  return (
    <div className={css({ overflowX: 'auto', _phone: { overflowX: 'visible' } })}>
      <table aria-label={label} className={table}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.headerCell ?? (c.srHeader ? <span className={css({ srOnly: true })}>{c.header}</span> : c.header)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) => {
                const part = c.card ?? 'field';
                return (
                  <td
                    key={c.header}
                    data-card={part}
                    data-label={part === 'field' ? c.header : undefined}
                    data-nowrap={c.nowrap || undefined}
                    data-numeric={c.numeric || undefined}
                  >
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and Next with 'Page n of m', for a list of pages. */
export function ListPager({
  label,
  page,
  lastPage,
  onPage,
  extra,
}: {
  /** names the navigation: '{label} pages' */
  label: string;
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
  /** after 'Page n of m' (a count of the rows) */
  extra?: ReactNode;
}) {
  return (
    <nav
      aria-label={`${label} pages`}
      className={css({ display: 'flex', alignItems: 'center', gap: '2', justifyContent: 'flex-end', flexWrap: 'wrap' })}
    >
      <Button tone="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={css({ fontSize: 'sm' })}>
        Page {Math.max(page, 1)} of {Math.max(lastPage, 1)}
        {extra}
      </span>
      <Button tone="secondary" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

export interface ListSectionProps<T> extends Partial<ListTableProps<T>> {
  /** The heading (h2) that names the section. */
  title: ReactNode;
  titleId: string;
  /** Beside the heading (export buttons). */
  tools?: ReactNode;
  /** Under the heading (the list's filters). */
  filters?: ReactNode;
  /** Between the filters and the rows (a selection's bar). */
  before?: ReactNode;
  status: ListStatus;
  /** 'Loading the orders' */
  loadingLabel: string;
  empty: ReactNode;
  onRetry: () => void;
  pager?: ReactNode;
  /** Shown instead of the table when the list draws its own rows. */
  children?: ReactNode;
  className?: string;
}

/**
 * The shared list section: a card with its heading, filters and rows, and the three states every list has (a
 * skeleton while the first page loads, 'Failed to fetch data' with Retry, the empty text), then the rows as
 * `ListTable` draws them (cards on a phone) and the pager.
 */
export function ListSection<T>(props: ListSectionProps<T>) {
  const { title, titleId, tools, filters, before, status, loadingLabel, empty, onRetry, pager, children } = props;
  return (
    <section aria-labelledby={titleId} aria-busy={status === 'loading'} className={cx(listCard, props.className)}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <h2 id={titleId} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          {title}
        </h2>
        {tools ? <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>{tools}</div> : null}
      </div>
      {filters}
      {before}
      {status === 'loading' ? (
        <Loading label={loadingLabel}>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : status === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={onRetry}>
            Retry
          </Button>
        </div>
      ) : status === 'empty' ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{empty}</p>
      ) : (
        <>
          {children ??
            (props.columns && props.rows && props.rowKey ? (
              <ListTable
                label={props.label ?? (typeof title === 'string' ? title : '')}
                columns={props.columns}
                rows={props.rows}
                rowKey={props.rowKey}
                rowProps={props.rowProps}
              />
            ) : null)}
          {pager}
        </>
      )}
    </section>
  );
}
