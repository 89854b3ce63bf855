import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { CurrencyCode } from '../../../machines/deposit.machine';
import { selectAllowedPermissions } from '../../../machines/session.machine';
import {
  type CsvRows,
  type DepositFilters,
  type DepositStatus,
  type TransactionFilters,
  type WalletDeposit,
  type WalletTransaction,
  type WalletTransactionType,
  type walletDepositsMachine,
  walletMachine,
  type walletTransactionsMachine,
} from '../../../machines/wallet.machine';
import { canOpen } from '../../app/route-access';
import { Session } from '../../app/session';
import { useViewActor } from '../../app/view-actor';
import { type CsvColumn, downloadCsv, toCsv } from '../../lib/csv';
import { DEPOSIT_PROOF_RULES } from '../../lib/file-rules';
import { formatDate } from '../../lib/format-date';
import { formatMinorUnits, formatMoney } from '../../lib/money';
import { openProof } from '../../lib/proof-file';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FileField } from '../../ui/file-field';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { DepositStatusBadge, DepositTracking } from './deposit-tracking';
import { TopUpDrawer } from './top-up-drawer';

type WalletRef = ActorRefFrom<typeof walletMachine>;
type DepositsRef = ActorRefFrom<typeof walletDepositsMachine>;
type TransactionsRef = ActorRefFrom<typeof walletTransactionsMachine>;

const WalletContext = createContext<WalletRef | null>(null);
function useWallet(): WalletRef {
  const wallet = useContext(WalletContext);
  if (!wallet) throw new Error('useWallet needs the wallet page');
  return wallet;
}

const money = (minor: number, currency: string) => formatMoney({ minor, currency });
const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

const STATUS_OPTIONS: Option<DepositStatus>[] = [
  { label: 'Pending admin approval', value: 'pending' },
  { label: 'Approved', value: 'approved' },
  { label: 'Rejected', value: 'rejected' },
];
const TYPE_OPTIONS: Option<WalletTransactionType>[] = [
  { label: 'Deposit', value: 'deposit' },
  { label: 'Purchase', value: 'purchase' },
];

const DEPOSIT_COLUMNS: CsvColumn<WalletDeposit>[] = [
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
const TRANSACTION_COLUMNS: CsvColumn<WalletTransaction>[] = [
  { heading: 'Transaction', cell: (t) => t.id },
  { heading: 'Date', cell: (t) => t.created_at },
  { heading: 'Type', cell: (t) => t.type },
  { heading: 'Description', cell: (t) => t.description },
  { heading: 'Amount', cell: (t) => formatMinorUnits(t.amount, 2, { grouping: false }) },
  { heading: 'Currency', cell: (t) => t.currency },
  { heading: 'Balance after', cell: (t) => formatMinorUnits(t.balance_after, 2, { grouping: false }) },
];

function exportCsv({ kind, rows }: CsvRows) {
  const text =
    kind === 'deposits'
      ? toCsv(rows as WalletDeposit[], DEPOSIT_COLUMNS)
      : toCsv(rows as WalletTransaction[], TRANSACTION_COLUMNS);
  downloadCsv(`sb-pay-${kind}.csv`, text);
}

/** reports/wallet: the SB Pay balances, the deposit history (live while a request is pending) and the transactions. */
export default function WalletPage() {
  const wallet = useViewActor(walletMachine, 'wallet', undefined, { systemId: 'wallet' });
  useEffect(() => {
    if (!wallet) return;
    const csv = wallet.on('csv.ready', exportCsv);
    const proof = wallet.on('proof.ready', ({ proof }) => openProof(proof));
    return () => {
      csv.unsubscribe();
      proof.unsubscribe();
    };
  }, [wallet]);
  if (!wallet) return null;
  return (
    <WalletContext.Provider value={wallet}>
      <div className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })}>
        <Balances />
        <Deposits />
        <Transactions />
        <Detail />
      </div>
    </WalletContext.Provider>
  );
}

// minmax(0, 1fr): a wide table scrolls inside its card instead of widening the page
const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});

function Balances() {
  const wallet = useWallet();
  const details = useSelector(wallet, (s) => s.context.details);
  const failed = useSelector(wallet, (s) => s.matches({ details: 'failed' }));
  const account = Session.useSelector((s) => s.context.account?.currency) as CurrencyCode | undefined;
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());
  const isAdmin = Session.useSelector((s) => s.context.account?.user_type === 'admin');
  const mayOpenPayouts = canOpen(routes.payouts.href({}), permissions, isAdmin);
  const [topUp, setTopUp] = useState(false);
  return (
    <section aria-labelledby="wallet-balances" className={card}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <h2 id="wallet-balances" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          SB Pay balance
        </h2>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
          {mayOpenPayouts ? (
            <Link className={css({ fontSize: 'sm' })} href={routes.payouts.href({})}>
              Payouts
            </Link>
          ) : null}
          <Button onClick={() => setTopUp(true)}>Top up</Button>
        </div>
      </div>
      {failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => wallet.send({ type: 'details.retried' })}>
            Retry
          </Button>
        </div>
      ) : !details ? (
        <Loading label="Loading the balances">
          <div className={css({ display: 'flex', gap: '3' })}>
            {[1, 2, 3, 4].map((i) => (
              <Skeleton key={i} width="10rem" height="64px" radius="md" />
            ))}
          </div>
        </Loading>
      ) : (
        <ul
          aria-label="Balances"
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 12rem), 1fr))',
            listStyle: 'none',
            p: 0,
            m: 0,
          })}
        >
          {details.balances.map((b) => (
            <li
              key={b.currency}
              aria-label={`${b.currency} balance`}
              className={css({
                border: '1px solid {colors.border}',
                borderRadius: 'md',
                p: '3',
                display: 'grid',
                gap: '1',
              })}
            >
              <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{b.currency}</span>
              <span data-testid={`balance-${b.currency}`} className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
                {money(b.balance, b.currency)}
              </span>
              {b.pending > 0 ? (
                <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                  {money(b.pending, b.currency)} pending admin approval
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {details ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Your top-up reference: {details.reference}</p>
      ) : null}
      <TopUpDrawer open={topUp} onClose={() => setTopUp(false)} currency={account ?? null} />
    </section>
  );
}

/** A list child of the wallet (the deposit or transaction history). */
function useChild<T>(id: 'deposits' | 'transactions') {
  const wallet = useWallet();
  return useSelector(wallet, (s) => s.children[id]) as T | undefined;
}

function Pager({
  page,
  lastPage,
  onPage,
  label,
}: {
  page: number;
  lastPage: number;
  onPage: (p: number) => void;
  label: string;
}) {
  return (
    <nav
      aria-label={`${label} pages`}
      className={css({ display: 'flex', alignItems: 'center', gap: '2', justifyContent: 'flex-end' })}
    >
      <Button tone="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={css({ fontSize: 'sm' })}>
        Page {Math.max(page, 1)} of {lastPage}
      </span>
      <Button tone="secondary" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

function ListFrame({
  title,
  id,
  filters,
  state,
  onRetry,
  onExport,
  exporting,
  pager,
  children,
}: {
  title: string;
  id: string;
  filters: ReactNode;
  state: 'loading' | 'failed' | 'empty' | 'shown';
  onRetry: () => void;
  onExport: () => void;
  exporting: boolean;
  pager: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} aria-busy={state === 'loading'} className={card}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <h2 id={id} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          {title}
        </h2>
        <Button tone="secondary" busy={exporting} disabled={exporting} onClick={onExport}>
          Export CSV
        </Button>
      </div>
      <div
        className={css({
          display: 'flex',
          gap: '3',
          flexWrap: 'wrap',
          alignItems: 'flex-end',
          '& > *': { width: { base: '100%', desktop: '16rem' } },
        })}
      >
        {filters}
      </div>
      {state === 'loading' ? (
        <Loading label={`Loading the ${title.toLowerCase()}`}>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={onRetry}>
            Retry
          </Button>
        </div>
      ) : state === 'empty' ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Nothing matches these filters.</p>
      ) : (
        <>
          <div className={css({ overflowX: 'auto' })}>{children}</div>
          {pager}
        </>
      )}
    </section>
  );
}

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
  // on a phone each row is a small card of its cells, so the tracking shows without scrolling sideways
  _phone: {
    '& thead': { srOnly: true },
    '& tbody, & tr, & td': { display: 'block' },
    '& tr': { py: '2', borderTop: '1px solid {colors.border}' },
    '& td': { border: 'none', py: '0.5', px: '0' },
  },
});

// biome-ignore lint/suspicious/noExplicitAny: either list machine's snapshot
function listState(s: { matches: (v: any) => boolean; hasTag: (t: any) => boolean }) {
  if (s.hasTag('loadingFirst')) return 'loading' as const;
  if (s.matches('failed')) return 'failed' as const;
  if (s.matches('empty')) return 'empty' as const;
  return 'shown' as const;
}

type HistoryKind = 'deposits' | 'transactions';
type HistoryItems = { deposits: WalletDeposit; transactions: WalletTransaction };
type HistoryFilters = { deposits: DepositFilters; transactions: TransactionFilters };

/**
 * One history of the wallet page: its list actor's rows, filters (a date range and one drop-down) and pages in
 * the shared list frame, with CSV export through the wallet. `table` draws the rows.
 */
function HistoryList<K extends HistoryKind, V extends string>(props: {
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

function Deposits() {
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

function Transactions() {
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

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={css({ display: 'flex', gap: '3', py: '1.5', borderBottom: '1px solid {colors.border}' })}>
      <dt className={css({ width: '9rem', flexShrink: 0, color: 'fg.muted', fontSize: 'sm' })}>{label}</dt>
      <dd className={css({ flex: 1, minWidth: 0, overflowWrap: 'anywhere' })}>{children}</dd>
    </div>
  );
}

/** The detail view of a row: every field of the deposit (with its proof) or of the transaction. */
function Detail() {
  const wallet = useWallet();
  const detail = useSelector(wallet, (s) => s.context.detail);
  const loadingProof = useSelector(wallet, (s) => s.hasTag('loadingProof'));
  const addingProof = useSelector(wallet, (s) => s.hasTag('addingProof'));
  const [chosen, setChosen] = useState<File | null>(null);
  const close = () => wallet.send({ type: 'detail.closed' });
  if (!detail) return null;
  if (detail.kind === 'deposit') {
    const d = detail.deposit;
    return (
      <Modal open onClose={close} closeOnOutsideClick title={`Deposit #${d.deposit_id}`}>
        <dl>
          <Row label="Amount">{money(d.amount, d.currency)}</Row>
          <Row label="Status">
            <DepositStatusBadge deposit={d} />
          </Row>
          <Row label="Tracking">
            <DepositTracking deposit={d} now={Date.now()} />
          </Row>
          <Row label="Payment transfer by">{d.payment_transfer_by}</Row>
          <Row label="Reference">{d.reference}</Row>
          <Row label="Submitted">{dateTime(d.created_at)}</Row>
          <Row label="Decided">{d.decided_at ? dateTime(d.decided_at) : '-'}</Row>
          <Row label="Notes">{d.notes ?? '-'}</Row>
          <Row label="Proof">
            {d.proof ? (
              <Button
                tone="secondary"
                busy={loadingProof}
                disabled={loadingProof}
                onClick={() => wallet.send({ type: 'proof.requested' })}
              >
                View proof ({d.proof.name})
              </Button>
            ) : d.status === 'pending' ? (
              // sent without a proof: it may follow while the request is pending (never replaced once sent)
              <FileField
                label="Add proof of payment"
                rules={DEPOSIT_PROOF_RULES}
                file={addingProof ? chosen : null}
                onFileChange={(file) => {
                  setChosen(file);
                  if (file) wallet.send({ type: 'proof.chosen', file });
                }}
                disabled={addingProof}
              />
            ) : (
              '-'
            )}
          </Row>
        </dl>
      </Modal>
    );
  }
  const t = detail.transaction;
  return (
    <Modal open onClose={close} closeOnOutsideClick title={`Transaction #${t.id}`}>
      <dl>
        <Row label="Type">{t.type}</Row>
        <Row label="Description">{t.description}</Row>
        <Row label="Amount">{money(t.amount, t.currency)}</Row>
        <Row label="Balance after">{money(t.balance_after, t.currency)}</Row>
        <Row label="Date">{dateTime(t.created_at)}</Row>
        <Row label="Deposit">{t.deposit_id === null ? '-' : `#${t.deposit_id}`}</Row>
      </dl>
    </Modal>
  );
}
