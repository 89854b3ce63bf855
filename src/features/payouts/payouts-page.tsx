import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { blobOf } from '../../../machines/file-blob';
import { type PayoutBalance, payoutsMachine } from '../../../machines/payouts.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { currencyExponent, formatMinorUnits, formatMoney, parseMinorUnits } from '../../lib/money';
import { saveFile } from '../../lib/save-file';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { ListTable } from '../../ui/list-section';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { NextPayout } from './next-payout';
import { PayoutHistory } from './payout-history';
import { PayoutOrders } from './payout-orders';

export type PayoutsRef = ActorRefFrom<typeof payoutsMachine>;

const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});
const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/** reports/payouts: balances, the payout account, Request payout, the history with details, exports. */
export default function PayoutsPage() {
  const payouts = useViewActor(payoutsMachine, 'payouts');
  useEffect(() => {
    if (!payouts) return;
    const sub = payouts.on('export.ready', ({ file }) => saveFile(blobOf(file), file.name));
    return () => sub.unsubscribe();
  }, [payouts]);
  if (!payouts) return null;
  return (
    <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: 'minmax(0, 1fr)' })}>
      <Balances payouts={payouts} />
      <BankAccount payouts={payouts} />
      <PayoutHistory payouts={payouts} />
      <PayoutOrders />
      <RequestDialog payouts={payouts} />
      <BankDialog payouts={payouts} />
      <DetailsDialog payouts={payouts} />
    </div>
  );
}

const money = (b: PayoutBalance, minor: number) => formatMoney({ minor, currency: b.currency });

function Balances({ payouts }: { payouts: PayoutsRef }) {
  const summary = useSelector(payouts, (s) => s.context.summary);
  const loading = useSelector(payouts, (s) => s.hasTag('loadingSummary'));
  const failed = useSelector(payouts, (s) => s.matches({ summary: 'failed' }));
  return (
    <section aria-labelledby="payout-balances" aria-busy={loading} className={card}>
      <h2 id="payout-balances" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Balances
      </h2>
      <p className={muted}>
        Available: completed sales not yet paid out. Pending: sales not completed yet. A payout of at least{' '}
        {summary ? `${(summary.minimum / 100).toFixed(2)}` : '20.00'} costs a fee of{' '}
        {summary ? `${(summary.fee / 100).toFixed(2)}` : '1.00'} in its currency.{' '}
        <a href={routes.wallet.href({})}>SB Pay wallet</a>
      </p>
      {loading ? (
        <Loading label="Loading the balances">
          <Skeleton height="80px" />
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => payouts.send({ type: 'summary.retried' })}>
            Retry
          </Button>
        </div>
      ) : null}
      {summary && !loading && !failed ? <NextPayout next={summary.next_payout} /> : null}
      {loading || failed ? null : summary ? (
        <ListTable
          label="Balances by currency"
          rows={summary.balances}
          rowKey={(b) => b.currency}
          rowProps={(b) => ({ 'aria-label': `${b.currency} balance` })}
          columns={[
            { header: 'Currency', card: 'title', cell: (b) => b.currency },
            { header: 'Available', nowrap: true, numeric: true, cell: (b) => money(b, b.available) },
            { header: 'Pending', nowrap: true, numeric: true, cell: (b) => money(b, b.pending) },
            { header: 'In progress', nowrap: true, numeric: true, cell: (b) => money(b, b.in_flight) },
            { header: 'Paid out', nowrap: true, numeric: true, cell: (b) => money(b, b.paid_out) },
            {
              header: 'Request',
              srHeader: true,
              card: 'actions',
              cell: (b) => (
                <div>
                  <Button
                    tone="primary"
                    disabled={!summary.bank_account || b.available < summary.minimum}
                    onClick={() => payouts.send({ type: 'request.opened', currency: b.currency })}
                  >
                    Request payout<span className={css({ srOnly: true })}> in {b.currency}</span>
                  </Button>
                </div>
              ),
            },
          ]}
        />
      ) : null}
    </section>
  );
}

function BankAccount({ payouts }: { payouts: PayoutsRef }) {
  const account = useSelector(payouts, (s) => s.context.summary?.bank_account ?? null);
  const ready = useSelector(payouts, (s) => s.context.summary !== null);
  return (
    <section aria-labelledby="payout-account" className={card}>
      <h2 id="payout-account" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Payout bank account
      </h2>
      {!ready ? null : account ? (
        <p className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
          {account.holder_name}, IBAN {account.iban_masked}, SWIFT/BIC {account.bic}
        </p>
      ) : (
        <p className={muted}>No payout account yet: add one to request a payout.</p>
      )}
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
        <Button tone="secondary" onClick={() => payouts.send({ type: 'bank.opened' })}>
          {account ? 'Change bank account' : 'Add bank account'}
        </Button>
        <a className={css({ fontSize: 'sm', alignSelf: 'center' })} href={routes.bankAccounts.href({})}>
          All bank accounts
        </a>
      </div>
    </section>
  );
}

const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

function RequestDialog({ payouts }: { payouts: PayoutsRef }) {
  const open = useSelector(payouts, (s) => !s.matches({ request: 'idle' }));
  const ask = useSelector(payouts, (s) => s.context.ask);
  if (!open || !ask) return null;
  // a dialog of its own per opening, so that the amount field starts from the balance each time
  return <RequestForm payouts={payouts} currency={ask.currency} />;
}

function RequestForm({ payouts, currency }: { payouts: PayoutsRef; currency: PayoutBalance['currency'] }) {
  const ask = useSelector(payouts, (s) => s.context.ask);
  const fee = useSelector(payouts, (s) => s.context.summary?.fee ?? 0);
  const minimum = useSelector(payouts, (s) => s.context.summary?.minimum ?? 0);
  const available = useSelector(
    payouts,
    (s) => s.context.summary?.balances.find((b) => b.currency === currency)?.available ?? 0,
  );
  const account = useSelector(payouts, (s) => s.context.summary?.bank_account ?? null);
  const problem = useSelector(payouts, (s) => s.context.problem);
  const busy = useSelector(payouts, (s) => s.hasTag('requesting'));
  const can = useSelector(payouts, (s) => s.can({ type: 'request.submitted' }));
  const exponent = currencyExponent(currency);
  const [text, setText] = useState(() => formatMinorUnits(available, exponent, { grouping: false }));
  const amount = ask?.amount ?? 0;
  const typed = parseMinorUnits(text, exponent);
  const money = (minor: number) => formatMoney({ minor, currency });
  const amountError =
    typed === null
      ? 'Enter an amount, such as 25.00.'
      : typed < minimum
        ? `The smallest payout is ${money(minimum)}.`
        : typed > available
          ? `You can pay out at most ${money(available)}, your available balance.`
          : null;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    payouts.send({ type: 'request.submitted' });
  };
  return (
    <Modal open title="Request payout" onClose={() => payouts.send({ type: 'request.cancelled' })}>
      <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
        <p>
          Available: {money(available)}. Pay out all of it or less, at least {money(minimum)}.
        </p>
        <TextField
          label={`Amount (${currency})`}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          required
          maxLength={20}
          value={text}
          error={amountError}
          onChange={(e) => {
            const next = e.currentTarget.value;
            setText(next);
            payouts.send({ type: 'request.amountChanged', amount: parseMinorUnits(next, exponent) });
          }}
        />
        {amountError === null ? (
          <p aria-live="polite">
            Pay out {money(amount)}. After the {money(fee)} fee, {money(Math.max(0, amount - fee))} reaches{' '}
            {account ? `${account.holder_name}, ${account.iban_masked}` : 'your bank account'}.
          </p>
        ) : null}
        {problem ? (
          <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
            {problem}
          </p>
        ) : null}
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => payouts.send({ type: 'request.cancelled' })}>
            Cancel
          </Button>
          <Button
            tone="primary"
            type="submit"
            busy={busy}
            disabled={!can}
            whyDisabled={
              account
                ? amountError
                  ? 'Correct the amount first.'
                  : null
                : 'Add a payout bank account in Settings first.'
            }
          >
            Confirm payout
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function BankDialog({ payouts }: { payouts: PayoutsRef }) {
  const open = useSelector(payouts, (s) => !s.matches({ bank: 'closed' }));
  const busy = useSelector(payouts, (s) => s.hasTag('savingBank'));
  const problem = useSelector(payouts, (s) => s.context.problem);
  const errors = useSelector(payouts, (s) => s.context.fieldErrors);
  if (!open) return null;
  const errorOf = (field: string) => errors.find((e) => e.path === `/body/${field}`)?.message;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    payouts.send({
      type: 'bank.submitted',
      form: {
        account_holder: text('account_holder'),
        iban: text('iban'),
        swift: text('swift'),
        password: text('password'),
      },
    });
  };
  return (
    <Modal open title="Payout bank account" onClose={() => payouts.send({ type: 'bank.cancelled' })}>
      <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
        <TextField
          label="Account holder"
          name="account_holder"
          required
          maxLength={100}
          autoComplete="name"
          error={errorOf('account_holder')}
        />
        <TextField label="IBAN" name="iban" required maxLength={50} error={errorOf('iban')} />
        <TextField label="SWIFT/BIC" name="swift" required maxLength={14} error={errorOf('swift')} />
        <TextField
          label="Your password"
          name="password"
          type="password"
          required
          maxLength={128}
          autoComplete="current-password"
          error={errorOf('password')}
        />
        <p className={muted}>We email you and notify you of every change of your payout account.</p>
        {problem && errors.length === 0 ? (
          <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
            {problem}
          </p>
        ) : null}
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => payouts.send({ type: 'bank.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" type="submit" busy={busy}>
            Save bank account
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function DetailsDialog({ payouts }: { payouts: PayoutsRef }) {
  const open = useSelector(payouts, (s) => !s.matches({ details: 'closed' }));
  const loading = useSelector(payouts, (s) => s.hasTag('loadingDetails'));
  const failed = useSelector(payouts, (s) => s.matches({ details: 'failed' }));
  const details = useSelector(payouts, (s) => s.context.details);
  if (!open) return null;
  const close = () => payouts.send({ type: 'details.closed' });
  return (
    <Modal open title={details ? `Payout ${details.payout.reference}` : 'Payout'} onClose={close}>
      {loading ? (
        <Loading label="Loading the payout">
          <Skeleton height="80px" />
        </Loading>
      ) : failed || !details ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          Failed to fetch data
        </p>
      ) : (
        <div className={css({ display: 'grid', gap: '3' })}>
          <dl
            className={css({ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: '1 3', fontSize: 'sm' })}
          >
            <dt>Status</dt>
            <dd>{details.payout.status_label}</dd>
            <dt>Amount</dt>
            <dd>{formatMoney({ minor: details.payout.amount, currency: details.payout.currency })}</dd>
            <dt>Fee</dt>
            <dd>{formatMoney({ minor: details.payout.fee, currency: details.payout.currency })}</dd>
            <dt>To the bank</dt>
            <dd>{formatMoney({ minor: details.payout.net, currency: details.payout.currency })}</dd>
            <dt>Account</dt>
            <dd>
              {details.payout.bank_account.holder_name}, {details.payout.bank_account.iban_masked}
            </dd>
            <dt>Requested</dt>
            <dd>{dateTime(details.payout.created_at)}</dd>
            {details.payout.decided_at ? (
              <>
                <dt>{details.payout.status === 'failed' ? 'Failed' : 'Paid'}</dt>
                <dd>{dateTime(details.payout.decided_at)}</dd>
              </>
            ) : null}
            {details.payout.failure_reason ? (
              <>
                <dt>Reason</dt>
                <dd>{details.payout.failure_reason}</dd>
              </>
            ) : null}
          </dl>
          <h3 className={css({ fontWeight: 'semibold' })}>Orders it covers</h3>
          <div className={css({ overflowX: 'auto' })}>
            <table className={table}>
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Match</th>
                  <th>Earned</th>
                  <th>In this payout</th>
                </tr>
              </thead>
              <tbody>
                {details.orders.map((o) => (
                  <tr key={o.order_id}>
                    <td>{o.booking_no}</td>
                    <td className={css({ overflowWrap: 'anywhere' })}>{o.match_name}</td>
                    <td>{formatMoney({ minor: o.order_amount, currency: o.currency })}</td>
                    <td>{formatMoney({ minor: o.amount, currency: o.currency })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Modal>
  );
}
