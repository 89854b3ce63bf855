import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type {
  DepositFilters,
  TransactionFilters,
  WalletDeposit,
  WalletTransaction,
} from '../../../../machines/wallet.machine';
import { DatePicker } from '../../../ui/date-picker';
import { Dropdown, type Option } from '../../../ui/dropdown';
import { ListFrame } from './list-frame';
import { Pager } from './pager';
import { type DepositsRef, listState, type TransactionsRef, useChild, useWallet } from './wallet-parts';

export type HistoryKind = 'deposits' | 'transactions';
export type HistoryItems = { deposits: WalletDeposit; transactions: WalletTransaction };
export type HistoryFilters = { deposits: DepositFilters; transactions: TransactionFilters };

/**
 * One history of the wallet page: its list actor's rows, filters (a date range and one drop-down) and pages in
 * the shared list frame, with CSV export through the wallet. `table` draws the rows.
 */
export function HistoryList<K extends HistoryKind, V extends string>(props: {
  kind: K;
  title: string;
  id: string;
  dateLabel: string;
  choice: {
    label: string;
    options: Option<V>[];
    value: (f: HistoryFilters[K]) => V | null;
    changes: (v: V | null) => Partial<HistoryFilters[K]>;
  };
  table: (items: HistoryItems[K][]) => ReactNode;
}) {
  const wallet = useWallet();
  const list = useChild<K extends 'deposits' ? DepositsRef : TransactionsRef>(props.kind);
  const snapshot = useSelector(list as DepositsRef | TransactionsRef | undefined, (s) => s);
  const exporting = useSelector(wallet, (s) => s.hasTag('exporting'));
  if (!list || !snapshot) return null;
  const { items, filters, page, lastPage } = snapshot.context as unknown as {
    items: HistoryItems[K][];
    filters: HistoryFilters[K];
    page: number;
    lastPage: number;
  };
  const send = (event: unknown) => (list as { send(e: unknown): void }).send(event);
  const setFilters = (changes: Partial<HistoryFilters[K]>) =>
    send({ type: 'filters.changed', filters: { ...filters, ...changes } });
  return (
    <ListFrame
      title={props.title}
      id={props.id}
      state={listState(snapshot)}
      exporting={exporting}
      onRetry={() => send({ type: 'list.retried' })}
      onExport={() => wallet.send({ type: 'csv.requested', kind: props.kind, filters } as never)}
      filters={
        <>
          <DatePicker
            mode="range"
            label={props.dateLabel}
            onChange={({ start, end }) => setFilters({ from: start, to: end } as Partial<HistoryFilters[K]>)}
          />
          <Dropdown
            label={props.choice.label}
            placeholder="All"
            searchable={false}
            options={props.choice.options}
            value={props.choice.value(filters)}
            onChange={(v) => setFilters(props.choice.changes(v))}
          />
        </>
      }
      pager={
        <Pager
          label={props.title}
          page={page}
          lastPage={lastPage}
          onPage={(p) => send({ type: 'page.requested', page: p })}
        />
      }
    >
      {props.table(items)}
    </ListFrame>
  );
}
