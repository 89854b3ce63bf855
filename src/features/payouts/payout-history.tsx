import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { Payout, payoutHistoryMachine, payoutsMachine } from '../../../machines/payouts.machine';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { type ListColumn, ListPager, ListSection, listStatus } from '../../ui/list-section';
import { dayOf } from './next-payout';

type HistoryRef = ActorRefFrom<typeof payoutHistoryMachine>;

const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

/** Payouts › Payout history: each payout with its amount, state and when it arrives; exports; a payout's details. */
export function PayoutHistory({ payouts }: { payouts: ActorRefFrom<typeof payoutsMachine> }) {
  const history = useSelector(payouts, (s) => s.children.history) as HistoryRef | undefined;
  const items = useSelector(history, (s) => s?.context.items ?? []);
  const status = useSelector(history, listStatus);
  const page = useSelector(history, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(history, (s) => s?.context.lastPage ?? 1);
  const exporting = useSelector(payouts, (s) => s.hasTag('exporting'));
  const columns: ListColumn<Payout>[] = [
    { header: 'Payout', card: 'title', cell: (p) => p.reference },
    { header: 'Requested', cell: (p) => dateTime(p.created_at) },
    {
      header: 'Amount',
      nowrap: true,
      numeric: true,
      cell: (p) => formatMoney({ minor: p.amount, currency: p.currency }),
    },
    { header: 'Net', nowrap: true, numeric: true, cell: (p) => formatMoney({ minor: p.net, currency: p.currency }) },
    { header: 'Status', cell: (p) => p.status_label },
    { header: 'Arrives', cell: (p) => (p.arrives_by ? `by ${dayOf(p.arrives_by)}` : '—') },
    {
      header: 'Account',
      cell: (p) => `${p.bank_account.iban_masked}${p.bank_account.removed_at ? ' (removed)' : ''}`,
    },
    {
      header: 'Details',
      srHeader: true,
      card: 'actions',
      cell: (p) => (
        <div>
          <Button tone="secondary" onClick={() => payouts.send({ type: 'details.opened', payoutId: p.payout_id })}>
            Details<span className={css({ srOnly: true })}> of {p.reference}</span>
          </Button>
        </div>
      ),
    },
  ];
  return (
    <ListSection
      title="Payout history"
      titleId="payout-history"
      tools={
        <>
          <Button
            tone="secondary"
            disabled={exporting}
            onClick={() => payouts.send({ type: 'export.requested', format: 'csv' })}
          >
            Export CSV
          </Button>
          <Button
            tone="secondary"
            disabled={exporting}
            onClick={() => payouts.send({ type: 'export.requested', format: 'xlsx' })}
          >
            Export XLSX
          </Button>
        </>
      }
      status={status}
      loadingLabel="Loading the payouts"
      empty="No payout yet."
      onRetry={() => history?.send({ type: 'list.retried' })}
      label="Payouts"
      columns={columns}
      rows={items}
      rowKey={(p) => p.payout_id}
      rowProps={(p) => ({ 'aria-label': `Payout ${p.reference}` })}
      pager={
        lastPage > 1 ? (
          <ListPager
            label="Payout history"
            page={page}
            lastPage={lastPage}
            onPage={(p) => history?.send({ type: 'page.requested', page: p })}
          />
        ) : null
      }
    />
  );
}
