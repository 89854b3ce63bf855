import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { DepositStatusBadge, DepositTracking } from '../deposit-tracking';
import { HistoryList } from './history-list';
import { dateTime, money, STATUS_OPTIONS, useWallet } from './wallet-parts';

export function Deposits() {
  const wallet = useWallet();
  // the wallet's polls re-render this while a request is pending: the time left follows
  const now = Date.now();
  return (
    <HistoryList
      kind="deposits"
      title="Deposit history"
      id="wallet-deposits"
      dateLabel="Deposit dates"
      choice={{
        label: 'Deposit status',
        options: STATUS_OPTIONS,
        value: (f) => f.status,
        changes: (status) => ({ status }),
      }}
      rowKey={(d) => d.deposit_id}
      rowProps={(d) => ({ 'data-testid': `deposit-${d.deposit_id}` })}
      columns={[
        { header: 'Submitted', card: 'title', cell: (d) => dateTime(d.created_at) },
        { header: 'Amount', nowrap: true, numeric: true, cell: (d) => money(d.amount, d.currency) },
        { header: 'Status', card: 'plain', cell: (d) => <DepositStatusBadge deposit={d} /> },
        { header: 'Tracking', card: 'plain', cell: (d) => <DepositTracking deposit={d} now={now} /> },
        {
          header: 'Details',
          srHeader: true,
          card: 'actions',
          cell: (d) => (
            <div>
              <Button
                tone="ghost"
                onClick={() => wallet.send({ type: 'detail.opened', detail: { kind: 'deposit', deposit: d } })}
              >
                Details<span className={css({ srOnly: true })}> of deposit #{d.deposit_id}</span>
              </Button>
            </div>
          ),
        },
      ]}
    />
  );
}
