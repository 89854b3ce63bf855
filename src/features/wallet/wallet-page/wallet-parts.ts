import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type {
  CsvRows,
  DepositStatus,
  WalletDeposit,
  WalletTransaction,
  WalletTransactionType,
  walletDepositsMachine,
  walletMachine,
  walletTransactionsMachine,
} from '../../../../machines/wallet.machine';
import { type CsvColumn, downloadCsv, toCsv } from '../../../lib/csv';
import { formatDate } from '../../../lib/format-date';
import { formatMinorUnits, formatMoney } from '../../../lib/money';
import type { Option } from '../../../ui/dropdown';

export type WalletRef = ActorRefFrom<typeof walletMachine>;
export type DepositsRef = ActorRefFrom<typeof walletDepositsMachine>;
export type TransactionsRef = ActorRefFrom<typeof walletTransactionsMachine>;

export const WalletContext = createContext<WalletRef | null>(null);
export function useWallet(): WalletRef {
  const wallet = useContext(WalletContext);
  if (!wallet) throw new Error('useWallet needs the wallet page');
  return wallet;
}

export const money = (minor: number, currency: string) => formatMoney({ minor, currency });
export const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

export const STATUS_OPTIONS: Option<DepositStatus>[] = [
  { label: 'Pending admin approval', value: 'pending' },
  { label: 'Approved', value: 'approved' },
  { label: 'Rejected', value: 'rejected' },
];
export const TYPE_OPTIONS: Option<WalletTransactionType>[] = [
  { label: 'Deposit', value: 'deposit' },
  { label: 'Purchase', value: 'purchase' },
];

export const DEPOSIT_COLUMNS: CsvColumn<WalletDeposit>[] = [
  { heading: 'Deposit', cell: (d) => d.deposit_id },
  { heading: 'Submitted', cell: (d) => d.created_at },
  { heading: 'Amount', cell: (d) => formatMinorUnits(d.amount, 2, { grouping: false }) },
  { heading: 'Currency', cell: (d) => d.currency },
  { heading: 'Payment transfer by', cell: (d) => d.payment_transfer_by },
  { heading: 'Status', cell: (d) => d.status_label },
  { heading: 'Reason', cell: (d) => d.rejection_reason },
  { heading: 'Reference', cell: (d) => d.reference },
  { heading: 'Notes', cell: (d) => d.notes },
];
export const TRANSACTION_COLUMNS: CsvColumn<WalletTransaction>[] = [
  { heading: 'Transaction', cell: (t) => t.id },
  { heading: 'Date', cell: (t) => t.created_at },
  { heading: 'Type', cell: (t) => t.type },
  { heading: 'Description', cell: (t) => t.description },
  { heading: 'Amount', cell: (t) => formatMinorUnits(t.amount, 2, { grouping: false }) },
  { heading: 'Currency', cell: (t) => t.currency },
  { heading: 'Balance after', cell: (t) => formatMinorUnits(t.balance_after, 2, { grouping: false }) },
];

export function exportCsv({ kind, rows }: CsvRows) {
  const text =
    kind === 'deposits'
      ? toCsv(rows as WalletDeposit[], DEPOSIT_COLUMNS)
      : toCsv(rows as WalletTransaction[], TRANSACTION_COLUMNS);
  downloadCsv(`sb-pay-${kind}.csv`, text);
}

// minmax(0, 1fr): a wide table scrolls inside its card instead of widening the page
export const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});
/** A list child of the wallet (the deposit or transaction history). */
export function useChild<T>(id: 'deposits' | 'transactions') {
  const wallet = useWallet();
  return useSelector(wallet, (s) => s.children[id]) as T | undefined;
}
