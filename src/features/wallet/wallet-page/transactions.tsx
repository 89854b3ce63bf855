import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { HistoryList } from './history-list';
import { dateTime, money, TYPE_OPTIONS, useWallet } from './wallet-parts';

export function Transactions() {
  const wallet = useWallet();
  return (
    <HistoryList
      kind="transactions"
      title="Transaction history"
      id="wallet-transactions"
      dateLabel="Transaction dates"
      choice={{
        label: 'Transaction type',
        options: TYPE_OPTIONS,
        value: (f) => f.type,
        changes: (type) => ({ type }),
      }}
      rowKey={(t) => t.id}
      columns={[
        { header: 'Date', card: 'title', cell: (t) => dateTime(t.created_at) },
        { header: 'Description', card: 'plain', cell: (t) => t.description },
        {
          header: 'Amount',
          nowrap: true,
          numeric: true,
          cell: (t) => (
            <span className={css({ color: t.amount >= 0 ? 'success' : 'fg' })}>
              {t.amount >= 0 ? '+' : ''}
              {money(t.amount, t.currency)}
            </span>
          ),
        },
        { header: 'Balance after', nowrap: true, numeric: true, cell: (t) => money(t.balance_after, t.currency) },
        {
          header: 'Details',
          srHeader: true,
          card: 'actions',
          cell: (t) => (
            <div>
              <Button
                tone="ghost"
                onClick={() => wallet.send({ type: 'detail.opened', detail: { kind: 'transaction', transaction: t } })}
              >
                Details<span className={css({ srOnly: true })}> of transaction #{t.id}</span>
              </Button>
            </div>
          ),
        },
      ]}
    />
  );
}
