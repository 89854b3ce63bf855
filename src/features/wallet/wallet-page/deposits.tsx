import { css } from 'styled-system/css';
import { Button } from '../../../ui/button';
import { DepositStatusBadge, DepositTracking } from '../deposit-tracking';
import { HistoryList } from './history-list';
import { dateTime, money, STATUS_OPTIONS, table, useWallet } from './wallet-parts';

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
      table={(items) => (
        <table className={table}>
          <thead>
            <tr>
              <th>Submitted</th>
              <th>Amount</th>
              <th>Status</th>
              <th>Tracking</th>
              <th>
                <span className={css({ srOnly: true })}>Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.deposit_id} data-testid={`deposit-${d.deposit_id}`}>
                <td>{dateTime(d.created_at)}</td>
                <td className={css({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>
                  {money(d.amount, d.currency)}
                </td>
                <td>
                  <DepositStatusBadge deposit={d} />
                </td>
                <td>
                  <DepositTracking deposit={d} now={now} />
                </td>
                <td>
                  <Button
                    tone="ghost"
                    onClick={() => wallet.send({ type: 'detail.opened', detail: { kind: 'deposit', deposit: d } })}
                  >
                    Details<span className={css({ srOnly: true })}> of deposit #{d.deposit_id}</span>
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
