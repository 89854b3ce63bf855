import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type {
  DepositFilters,
  TransactionFilters,
  WalletDeposit,
  WalletTransaction,
} from '../../../../machines/wallet.machine';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker';
import { Dropdown, type Option } from '../../../ui/dropdown';
import { type ListColumn, ListPager, ListSection, type ListTableProps, listStatus } from '../../../ui/list-section';
import { type DepositsRef, type TransactionsRef, useChild, useWallet } from './wallet-parts';

export type HistoryKind = 'deposits' | 'transactions';
export type HistoryItems = { deposits: WalletDeposit; transactions: WalletTransaction };
export type HistoryFilters = { deposits: DepositFilters; transactions: TransactionFilters };

/**
 * One history of the wallet page: its list actor's rows, filters (a date range and one drop-down) and pages in
 * the shared list section, with CSV export through the wallet. `columns` draw the rows (cards on a phone).
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
  columns: ListColumn<HistoryItems[K]>[];
  rowKey: (item: HistoryItems[K]) => number;
  rowProps?: ListTableProps<HistoryItems[K]>['rowProps'];
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
    <ListSection
      title={props.title}
      titleId={props.id}
      status={listStatus(snapshot)}
      loadingLabel={`Loading the ${props.title.toLowerCase()}`}
      empty="Nothing matches these filters."
      onRetry={() => send({ type: 'list.retried' })}
      tools={
        <Button
          tone="secondary"
          busy={exporting}
          disabled={exporting}
          onClick={() => wallet.send({ type: 'csv.requested', kind: props.kind, filters } as never)}
        >
          Export CSV
        </Button>
      }
      filters={
        <div
          className={css({
            display: 'flex',
            gap: '3',
            flexWrap: 'wrap',
            alignItems: 'flex-end',
            '& > *': { width: { base: '100%', desktop: '16rem' } },
          })}
        >
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
        </div>
      }
      label={props.title}
      columns={props.columns}
      rows={items}
      rowKey={props.rowKey}
      rowProps={props.rowProps}
      pager={
        <ListPager
          label={props.title}
          page={page}
          lastPage={lastPage}
          onPage={(p) => send({ type: 'page.requested', page: p })}
        />
      }
    />
  );
}
