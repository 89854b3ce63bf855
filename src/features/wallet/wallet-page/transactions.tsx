import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { HistoryList } from './history-list';
import { dateTime, money, TYPE_OPTIONS, table, useWallet } from './wallet-parts';

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
      table={(items) => (
        <table className={table}>
          <thead>
            <tr>
              <th>Date</th>
              <th>Description</th>
              <th>Amount</th>
              <th>Balance after</th>
              <th>
                <span className={css({ srOnly: true })}>Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((t) => (
              <tr key={t.id}>
                <td>{dateTime(t.created_at)}</td>
                <td>{t.description}</td>
                <td
                  className={css({
                    whiteSpace: 'nowrap',
                    fontVariantNumeric: 'tabular-nums',
                    color: t.amount >= 0 ? 'success' : 'fg',
                  })}
                >
                  {t.amount >= 0 ? '+' : ''}
                  {money(t.amount, t.currency)}
                </td>
                <td className={css({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>
                  <span className={css({ display: 'none', _phone: { display: 'inline' } })}>Balance after: </span>
                  {money(t.balance_after, t.currency)}
                </td>
                <td>
                  <Button
                    tone="ghost"
                    onClick={() =>
                      wallet.send({ type: 'detail.opened', detail: { kind: 'transaction', transaction: t } })
                    }
                  >
                    Details<span className={css({ srOnly: true })}> of transaction #{t.id}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}
