import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
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
import { saveFile } from '../../lib/save-file';
import { BarChart } from '../../ui/bar-chart';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Dropdown } from '../../ui/dropdown';
import { type ListColumn, ListPager, ListSection, listStatus } from '../../ui/list-section';
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
const CURRENCY_OPTIONS = CURRENCIES.map((c) => ({ value: c, label: c }));
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
// a filter holds its width whatever the options (a match's name), and takes the row on a phone
const field = css({
  display: 'grid',
  gap: '1',
  fontSize: 'sm',
  minWidth: '0',
  width: { base: '100%', desktop: '16rem' },
});
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
        <div className={field}>
          <Dropdown<ReportPreset | ''>
            label="Period"
            searchable={false}
            options={preset === '' ? [{ value: '', label: 'Custom range' }, ...PRESETS] : PRESETS}
            value={preset}
            onChange={(v) => v && report.send({ type: 'period.presetChosen', preset: v })}
          />
        </div>
        <div className={css({ minWidth: '260px' })}>
          <DatePicker
            key={range ? `${range.start}:${range.end}` : 'none'}
            mode="range"
            label="Date range"
            defaultValue={range}
            onChange={(r) => report.send({ type: 'period.rangeChosen', from: r.start, to: r.end })}
          />
        </div>
        <div className={field}>
          <Dropdown<ReportCurrency>
            label="Currency"
            searchable={false}
            options={CURRENCY_OPTIONS}
            value={filters.currency}
            onChange={(v) => v && report.send({ type: 'currency.changed', currency: v })}
          />
        </div>
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
  const columns: ListColumn<ReportOrderRow>[] = [
    {
      header: 'Order',
      card: 'title',
      cell: (o) => (
        <button
          type="button"
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
      ),
    },
    { header: 'Date', cell: (o) => formatDate(o.created_at) },
    { header: 'Match', cell: (o) => o.match_name },
    { header: 'Status', cell: (o) => o.status_label },
    { header: 'Tickets', cell: (o) => o.quantity },
    {
      header: 'Amount',
      nowrap: true,
      numeric: true,
      cell: (o) => formatMoney({ minor: o.amount, currency: o.currency }),
    },
  ];
  const list = useSelector(report, (s) => s.children.history as ListRef | undefined);
  const matches = useSelector(report, (s) => s.context.matches);
  const filters = useSelector(report, (s) => s.context.filters);
  const exporting = useSelector(report, (s) => s.hasTag('exporting'));
  const sort = useSelector(report, (s) => s.context.sort);
  const [q, setQ] = useState(filters.q);
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const page = useSelector(list, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(list, (s) => s?.context.lastPage ?? 1);
  const total = useSelector(list, (s) => s?.context.total ?? null);
  const status = useSelector(list, listStatus);
  return (
    <ListSection
      title="History"
      titleId="report-history-title"
      tools={
        <>
          <Button busy={exporting} onClick={() => report.send({ type: 'export.requested', format: 'csv' })}>
            Export CSV
          </Button>
          <Button busy={exporting} onClick={() => report.send({ type: 'export.requested', format: 'xlsx' })}>
            Export XLSX
          </Button>
        </>
      }
      filters={
        <form
          className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'end' })}
          onSubmit={(e) => {
            e.preventDefault();
            report.send({ type: 'search.changed', q });
          }}
        >
          <div className={field}>
            <Dropdown<number | ''>
              label="Match"
              options={[
                { value: '', label: 'All matches' },
                ...matches.map((m) => ({ value: m.match_id, label: `${m.match_name} (${formatDate(m.match_date)})` })),
              ]}
              value={filters.match_id ?? ''}
              onChange={(v) => report.send({ type: 'match.changed', matchId: typeof v === 'number' ? v : null })}
            />
          </div>
          <label className={field}>
            Search match, team or competition
            <input className={control} type="search" value={q} maxLength={100} onChange={(e) => setQ(e.target.value)} />
          </label>
          <Button type="submit">Search</Button>
          <div className={field}>
            <Dropdown<ReportSort>
              label="Sort"
              searchable={false}
              options={SORTS}
              value={sort ?? 'created_desc'}
              onChange={(v) => v && report.send({ type: 'sort.changed', sort: v })}
            />
          </div>
        </form>
      }
      status={status}
      loadingLabel="Loading the orders"
      empty="No orders in this period."
      onRetry={() => list?.send({ type: 'list.retried' })}
      label="The orders of the period"
      columns={columns}
      rows={items}
      rowKey={(o) => o.booking_id}
      pager={
        <ListPager
          label="History"
          page={page}
          lastPage={lastPage}
          onPage={(p) => list?.send({ type: 'page.requested', page: p })}
          extra={total !== null ? ` (${total} orders)` : null}
        />
      }
    />
  );
}
