import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type BankDetails,
  type CurrencyCode,
  DEPOSIT_LIMITS,
  type DepositField,
  depositMachine,
  PAYMENT_TRANSFER_BY,
  type PaymentTransferBy,
  selectCurrencyOptions,
} from '../../../machines/deposit.machine';
import { useViewActor } from '../../app/view-actor';
import { DEPOSIT_PROOF_RULES } from '../../lib/file-rules';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { Drawer } from '../../ui/drawer';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FileField } from '../../ui/file-field';
import { FormFooter } from '../../ui/form-footer';
import { CurrencyInput } from '../../ui/numeric-input';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';

type DepositRef = ActorRefFrom<typeof depositMachine>;

export const TOP_UP_TITLE = 'Top up your SB pay Account';

const METHOD_LABELS: Record<PaymentTransferBy, string> = { ONLINE: 'Online transfer', CASH: 'Cash', CHEQUE: 'Cheque' };
const METHOD_OPTIONS: Option<PaymentTransferBy>[] = PAYMENT_TRANSFER_BY.map((m) => ({
  label: METHOD_LABELS[m],
  value: m,
}));

export interface TopUpDrawerProps {
  open: boolean;
  /** Called when the panel closes: by Cancel, Close, Escape, or once the request is stored. */
  onClose: () => void;
  /** The currency the form starts with (the user's own, or the purchase's). */
  currency?: CurrencyCode | null;
}

/**
 * The 'Top up your SB pay Account' panel (a right-side drawer): the bank transfer details with the reference
 * to put on the transfer, and the deposit request form. The wallet page and the purchase panel's Deposit
 * button open it: `<TopUpDrawer open={open} onClose={() => setOpen(false)} currency="GBP" />`. A stored
 * request closes it; the wallet page, when it is open, reloads through the actor system.
 */
export function TopUpDrawer({ open, onClose, currency = null }: TopUpDrawerProps) {
  return (
    <Drawer open={open} onClose={onClose} title={TOP_UP_TITLE}>
      <TopUpBody currency={currency} onDone={onClose} />
    </Drawer>
  );
}

let opened = 0;

/** The drawer's body: its own deposit actor, started when the panel opens and stopped when it unmounts. */
function TopUpBody({ currency, onDone }: { currency: CurrencyCode | null; onDone: () => void }) {
  // each opening is a new request with a key of its own
  const [key] = useState(() => `topUp-${++opened}`);
  const deposit = useViewActor(depositMachine, key, { currency });
  const done = useSelector(deposit, (s) => s?.status === 'done');
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);
  if (!deposit) return null;
  return (
    <div className={css({ display: 'grid', gap: '6' })}>
      <BankTransfer deposit={deposit} />
      <DepositForm deposit={deposit} onCancel={onDone} />
    </div>
  );
}

const detailRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  py: '2',
  borderBottom: '1px solid {colors.border}',
  minWidth: 0,
});

/** The bank transfer top-up panel: where to send the money, with the reference, each copyable. */
function BankTransfer({ deposit }: { deposit: DepositRef }) {
  const bank = useSelector(deposit, (s) => s.context.bank);
  const loading = useSelector(deposit, (s) => s.hasTag('loadingBank'));
  const failed = useSelector(deposit, (s) => s.hasTag('bankFailed'));
  const waiting = useSelector(deposit, (s) => s.matches({ open: { bank: 'waiting' } }));
  return (
    <section aria-labelledby="bank-transfer-title" className={css({ display: 'grid', gap: '3' })}>
      <h3 id="bank-transfer-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Bank transfer
      </h3>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Top up by transferring from your funding account to the account below. Top-ups can take up to 24 hours to show
        in your wallet.
      </p>
      {waiting ? (
        <p className={css({ fontSize: 'sm' })}>Choose the currency of your transfer to see where to send it.</p>
      ) : loading ? (
        <Loading label="Loading the bank details">
          {['Account Name', 'IBAN', 'Swift', 'Reference'].map((label) => (
            <div key={label} className={detailRow}>
              <Skeleton width="30%" height="14px" />
              <Skeleton width="50%" height="14px" />
            </div>
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => deposit.send({ type: 'bank.retried' })}>
            Retry
          </Button>
        </div>
      ) : bank ? (
        <BankDetailsList bank={bank} />
      ) : null}
    </section>
  );
}

export function BankDetailsList({ bank }: { bank: BankDetails }) {
  const rows: Array<[string, string | null]> = [
    ['Account Name', bank.account_name],
    ['IBAN', bank.iban],
    ['Swift', bank.swiftcode],
    ['Reference', bank.reference],
  ];
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <dl className={css({ display: 'grid' })}>
        {rows.map(([label, value]) => (
          <div key={label} className={detailRow}>
            <dt className={css({ width: '8rem', flexShrink: 0, fontSize: 'sm', color: 'fg.muted' })}>{label}</dt>
            {/* a dl's row holds only its term and its definition: the copy button goes inside the definition */}
            <dd
              className={css({
                flex: 1,
                minWidth: 0,
                display: 'flex',
                gap: '2',
                alignItems: 'center',
                justifyContent: 'space-between',
              })}
            >
              <span className={css({ fontWeight: 'medium', overflowWrap: 'anywhere', minWidth: 0 })}>
                {value ?? '-'}
              </span>
              {value ? <CopyButton value={value} label={label} /> : null}
            </dd>
          </div>
        ))}
      </dl>
      <p role="note" className={css({ color: 'error', fontSize: 'sm', fontWeight: 'medium' })}>
        Include the reference {bank.reference} in your transfer, or we cannot match it to your wallet.
      </p>
    </div>
  );
}

/** The deposit request form: amount, currency, how it was sent, proof and notes. */
function DepositForm({ deposit, onCancel }: { deposit: DepositRef; onCancel: () => void }) {
  const values = useSelector(deposit, (s) => s.context.values);
  const errors = useSelector(deposit, (s) => s.context.errors);
  const progress = useSelector(deposit, (s) => s.context.progress);
  const submitting = useSelector(deposit, (s) => s.hasTag('submitting'));
  const currencies = useSelector(deposit, selectCurrencyOptions, (a, b) => a.length === b.length);
  const currenciesLoading = useSelector(deposit, (s) => s.hasTag('loadingCurrencies'));
  const currenciesFailed = useSelector(deposit, (s) => s.hasTag('currenciesFailed'));
  // Submit is enabled by the machine: amount, currency and method given, nothing on its way
  const canSubmit = useSelector(deposit, (s) => s.can({ type: 'form.submitted' }));
  const change = (field: DepositField, value: unknown) => deposit.send({ type: 'field.changed', field, value });
  return (
    <form
      aria-labelledby="deposit-request-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        deposit.send({ type: 'form.submitted' });
      }}
      className={css({ display: 'grid', gap: '4' })}
    >
      <h3 id="deposit-request-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Deposit request
      </h3>
      <CurrencyInput
        label="Deposit amount"
        required
        allowNegative={false}
        currency={values.currency ?? 'GBP'}
        value={values.deposit_amount}
        onValueChange={(minor) => change('deposit_amount', minor)}
        error={errors.deposit_amount}
        disabled={submitting}
      />
      <Dropdown
        label="Currency"
        required
        searchable={false}
        options={currencies}
        loading={currenciesLoading}
        value={values.currency}
        onChange={(value) => change('currency', value)}
        error={errors.currency ?? (currenciesFailed ? 'Failed to fetch data' : null)}
        disabled={submitting}
      />
      {currenciesFailed ? (
        <Button tone="secondary" onClick={() => deposit.send({ type: 'currencies.retried' })}>
          Retry
        </Button>
      ) : null}
      <Dropdown
        label="Payment transfer by"
        required
        searchable={false}
        options={METHOD_OPTIONS}
        value={values.payment_transfer_by}
        onChange={(value) => change('payment_transfer_by', value)}
        error={errors.payment_transfer_by}
        disabled={submitting}
      />
      <FileField
        label="Proof of payment"
        rules={DEPOSIT_PROOF_RULES}
        file={values.proof}
        onFileChange={(file) => change('proof', file)}
        error={errors.proof}
        progress={progress}
        disabled={submitting}
      />
      <TextField
        label="Notes"
        value={values.notes}
        maxLength={DEPOSIT_LIMITS.notes?.maxLength}
        onChange={(e) => change('notes', e.target.value)}
        error={errors.notes}
        disabled={submitting}
      />
      <FormFooter onCancel={onCancel} valid={canSubmit} submitting={submitting} />
    </form>
  );
}
