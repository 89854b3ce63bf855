import { useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type ReportCurrency,
  type ReportOrderRow,
  type ReportPreset,
  type ReportSort,
  type reportHistoryListMachine,
  reportHistoryMachine,
} from '../../../machines/report-history.machine';
import { Session } from '../../app/session';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { orderLogTitle } from '../../lib/order-log';
import { saveFile } from '../../lib/save-file';
import { blockText } from '../../lib/seats';
import { BarChart } from '../../ui/bar-chart';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Drawer } from '../../ui/drawer';
import { Skeleton } from '../../ui/skeleton';
import { ReportContext, useReport } from './report-context';
import { OrderDetails } from './report-order-details';
import { ScheduledReports } from './report-schedule';

type ListRef = ActorRefFrom<typeof reportHistoryListMachine>;

export const PRESETS: ReadonlyArray<{ value: ReportPreset; label: string }> = [
  { value: 'this_month', label: 'This month' },
  { value: 'last_month', label: 'Last month' },
  { value: 'this_quarter', label: 'This quarter' },
  { value: 'year_to_date', label: 'Year to date' },
];
const CURRENCIES: readonly ReportCurrency[] = ['GBP', 'EUR', 'USD', 'AED'];
const SORTS: ReadonlyArray<{ value: ReportSort; label: string }> = [
  { value: 'created_desc', label: 'Newest first' },
  { value: 'created_asc', label: 'Oldest first' },
  { value: 'amount_desc', label: 'Highest amount' },
  { value: 'amount_asc', label: 'Lowest amount' },
  { value: 'match_date', label: 'Match date' },
];

const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});
// a select is as wide as its longest option (a match's name): held to its row, whatever the names
const field = css({ display: 'grid', gap: '1', fontSize: 'sm', minWidth: '0', maxWidth: '100%' });
const control = css({
  width: '100%',
  maxWidth: '100%',
  textOverflow: 'ellipsis',
  height: '36px',
  px: '2',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  bg: 'bg',
});

/**
 * The period's orders: a table on a desktop; on a phone each order is a card of its lines (each named by its
 * column, `data-label`), so no column runs off the screen and nothing scrolls sideways.
 */
const ordersTable = css({
  width: '100%',
  fontSize: 'sm',
  borderCollapse: 'collapse',
  '& td': { overflowWrap: 'anywhere' },
  desktopDown: {
    display: 'block',
    '& thead': { srOnly: true },
    '& tbody, & tr': { display: 'block' },
    '& tr': { py: '2' },
    '& td': {
      display: 'grid',
      gridTemplateColumns: '6rem minmax(0, 1fr)',
      gap: '2',
      textAlign: 'left !important',
    },
    '& td[data-label]::before': { content: 'attr(data-label)', color: 'fg.muted' },
  },
});

/** report-history: the overview of a period (figures, charts), the history table with export, and an order's details. */
export default function ReportHistoryPage() {
  const own = Session.useSelector((s) => s.context.account?.currency);
  const currency = CURRENCIES.find((c) => c === own);
  const report = useViewActor(reportHistoryMachine, 'reportHistory', { currency }, { systemId: 'reportHistory' });
  useEffect(() => {
    if (!report) return;
    const sub = report.on('export.ready', ({ file }) => saveFile(file.file, file.name));
    return () => sub.unsubscribe();
  }, [report]);
  if (!report) return null;
  return (
    <ReportContext.Provider value={report}>
      <div className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })}>
        <Filters />
        <Overview />
        <History />
        <ScheduledReports />
        <OrderDetails />
      </div>
    </ReportContext.Provider>
  );
}

function Filters() {
  const report = useReport();
  const filters = useSelector(report, (s) => s.context.filters);
  const shown = useSelector(report, (s) => s.context.overview);
  const preset = 'preset' in filters.period ? filters.period.preset : '';
  const range = shown ? { start: shown.date_from, end: shown.date_to } : null;
  return (
    <section aria-label="Report period" className={card}>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'end' })}>
        <label className={field}>
          Period
          <select
            className={control}
            value={preset}
            onChange={(e) =>
              e.target.value && report.send({ type: 'period.presetChosen', preset: e.target.value as ReportPreset })
            }
          >
            {preset === '' && <option value="">Custom range</option>}
            {PRESETS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <div className={css({ minWidth: '260px' })}>
          <DatePicker
            key={range ? `${range.start}:${range.end}` : 'none'}
            mode="range"
            label="Date range"
            defaultValue={range}
            onChange={(r) => report.send({ type: 'period.rangeChosen', from: r.start, to: r.end })}
          />
        </div>
        <label className={field}>
          Currency
          <select
            className={control}
            value={filters.currency}
            onChange={(e) => report.send({ type: 'currency.changed', currency: e.target.value as ReportCurrency })}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}

const FIGURES: ReadonlyArray<{ key: string; label: string; money: boolean }> = [
  { key: 'gross_sales', label: 'Gross sales', money: true },
  { key: 'tickets', label: 'Tickets', money: false },
  { key: 'orders', label: 'Orders', money: false },
  { key: 'average_price', label: 'Average price', money: true },
  { key: 'fees', label: 'Fees', money: true },
  { key: 'net_earnings', label: 'Net earnings', money: true },
  { key: 'cancellations', label: 'Cancellations', money: false },
];

function Overview() {
  const report = useReport();
  const overview = useSelector(report, (s) => s.context.overview);
  const loading = useSelector(report, (s) => s.hasTag('loading'));
  const failed = useSelector(report, (s) => s.hasTag('error'));
  if (failed) {
    return (
      <section aria-label="Overview" className={card}>
        <p role="alert">Failed to fetch data</p>
        <Button onClick={() => report.send({ type: 'overview.retried' })}>Retry</Button>
      </section>
    );
  }
  const currency = overview?.currency ?? 'GBP';
  const money = (minor: number) => formatMoney({ minor, currency });
  const figures = overview?.figures as Record<string, number> | undefined;
  return (
    <section aria-label="Overview" aria-busy={loading} className={card}>
      <h2 className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        {overview ? `${formatDate(overview.date_from)} to ${formatDate(overview.date_to)} (UTC)` : 'Overview'}
      </h2>
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', desktop: 'repeat(7, minmax(0, 1fr))' },
          gap: '3',
          m: 0,
        })}
      >
        {FIGURES.map((f) => (
          <div key={f.key} className={css({ display: 'grid', gap: '1', minHeight: '52px' })}>
            <dt className={css({ fontSize: 'xs', color: 'fg.muted' })}>{f.label}</dt>
            <dd className={css({ m: 0, fontWeight: 'bold', fontVariantNumeric: 'tabular-nums' })} data-figure={f.key}>
              {figures && !loading ? (
                f.money ? (
                  money(figures[f.key] ?? 0)
                ) : (
                  String(figures[f.key] ?? 0)
                )
              ) : (
                <Skeleton width="80px" height="20px" />
              )}
            </dd>
          </div>
        ))}
      </dl>
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', desktop: '2fr 1fr' },
          gap: '4',
          minHeight: '260px',
        })}
      >
        {overview && !loading ? (
          <>
            <BarChart
              title={`Sales over time (${overview.granularity === 'week' ? 'by week' : 'by day'})`}
              labelHeading={overview.granularity === 'week' ? 'Week from' : 'Day'}
              valueHeading="Gross sales"
              bars={overview.series.map((p) => ({ label: p.date, value: p.gross_sales }))}
              format={money}
            />
            <BarChart
              title="Top matches"
              horizontal
              labelHeading="Match"
              valueHeading="Gross sales"
              bars={overview.top_matches.map((m) => ({ label: m.match_name, value: m.gross_sales }))}
              format={money}
            />
          </>
        ) : (
          <>
            <Skeleton width="100%" height="220px" />
            <Skeleton width="100%" height="220px" />
          </>
        )}
      </div>
    </section>
  );
}

function History() {
  const report = useReport();
  const list = useSelector(report, (s) => s.children.history as ListRef | undefined);
  const matches = useSelector(report, (s) => s.context.matches);
  const filters = useSelector(report, (s) => s.context.filters);
  const exporting = useSelector(report, (s) => s.hasTag('exporting'));
  const [q, setQ] = useState(filters.q);
  return (
    <section aria-labelledby="report-history-title" className={card}>
      <div
        className={css({
          display: 'flex',
          gap: '3',
          flexWrap: 'wrap',
          alignItems: 'end',
          justifyContent: 'space-between',
        })}
      >
        <h2 id="report-history-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          History
        </h2>
        <div className={css({ display: 'flex', gap: '2' })}>
          <Button busy={exporting} onClick={() => report.send({ type: 'export.requested', format: 'csv' })}>
            Export CSV
          </Button>
          <Button busy={exporting} onClick={() => report.send({ type: 'export.requested', format: 'xlsx' })}>
            Export XLSX
          </Button>
        </div>
      </div>
      <form
        className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'end' })}
        onSubmit={(e) => {
          e.preventDefault();
          report.send({ type: 'search.changed', q });
        }}
      >
        <label className={field}>
          Match
          <select
            className={control}
            value={filters.match_id ?? ''}
            onChange={(e) =>
              report.send({ type: 'match.changed', matchId: e.target.value ? Number(e.target.value) : null })
            }
          >
            <option value="">All matches</option>
            {matches.map((m) => (
              <option key={m.match_id} value={m.match_id}>
                {m.match_name} ({formatDate(m.match_date)})
              </option>
            ))}
          </select>
        </label>
        <label className={field}>
          Search match, team or competition
          <input className={control} type="search" value={q} maxLength={100} onChange={(e) => setQ(e.target.value)} />
        </label>
        <Button type="submit">Search</Button>
        <label className={field}>
          Sort
          <select
            className={control}
            defaultValue="created_desc"
            onChange={(e) => report.send({ type: 'sort.changed', sort: e.target.value as ReportSort })}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </form>
      {list && <HistoryTable list={list} />}
    </section>
  );
}

function HistoryTable({ list }: { list: ListRef }) {
  const report = useReport();
  const items = useSelector(list, (s) => s.context.items);
  const page = useSelector(list, (s) => s.context.page);
  const lastPage = useSelector(list, (s) => s.context.lastPage);
  const total = useSelector(list, (s) => s.context.total);
  const loading = useSelector(list, (s) => s.matches('loading'));
  const failed = useSelector(list, (s) => s.matches('failed'));
  const empty = useSelector(list, (s) => s.matches('empty'));
  if (failed) {
    return (
      <div role="alert">
        Failed to fetch data <Button onClick={() => list.send({ type: 'list.retried' })}>Retry</Button>
      </div>
    );
  }
  return (
    <div>
      <table className={ordersTable} aria-busy={loading}>
        <caption className={css({ srOnly: true })}>The orders of the period</caption>
        <thead>
          <tr className={css({ textAlign: 'left' })}>
            <th scope="col">Order</th>
            <th scope="col">Date</th>
            <th scope="col">Match</th>
            <th scope="col">Status</th>
            <th scope="col">Tickets</th>
            <th scope="col" className={css({ textAlign: 'right' })}>
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((o: ReportOrderRow) => (
            <tr key={o.booking_id} className={css({ borderTopWidth: '1px', borderColor: 'border' })}>
              <td>
                <button
                  type="button"
                  // at least 24 px square to a pointer (WCAG 2.2 target size)
                  className={css({
                    color: 'accent',
                    textDecoration: 'underline',
                    cursor: 'pointer',
                    minHeight: '24px',
                    minWidth: '24px',
                  })}
                  onClick={() => report.send({ type: 'order.opened', bookingId: o.booking_id })}
                >
                  {o.booking_no}
                </button>
              </td>
              <td data-label="Date">{formatDate(o.created_at)}</td>
              <td data-label="Match">{o.match_name}</td>
              <td data-label="Status">{o.status_label}</td>
              <td data-label="Tickets">{o.quantity}</td>
              <td data-label="Amount" className={css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' })}>
                {formatMoney({ minor: o.amount, currency: o.currency })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {empty && <p>No orders in this period.</p>}
      <nav aria-label="History pages" className={css({ display: 'flex', gap: '2', alignItems: 'center', mt: '2' })}>
        <Button disabled={page <= 1} onClick={() => list.send({ type: 'page.requested', page: page - 1 })}>
          Previous
        </Button>
        <span>
          Page {Math.max(page, 1)} of {lastPage} {total !== null ? `(${total} orders)` : ''}
        </span>
        <Button disabled={page >= lastPage} onClick={() => list.send({ type: 'page.requested', page: page + 1 })}>
          Next
        </Button>
      </nav>
    </div>
  );
}
