import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { type BankLine, bankLineQueueMachine } from '../../../machines/admin/queues';
import { statementImportMachine } from '../../../machines/admin/statement-import.machine';
import { useViewActor } from '../../app/view-actor';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { FileField } from '../../ui/file-field';
import { muted, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const amountOf = (l: BankLine) => formatMoney({ minor: l.amount, currency: l.currency });
const REASONS: Record<NonNullable<BankLine['reason']>, string> = {
  unknown_reference: 'No seller reference found',
  ambiguous: 'Fits several sellers',
  part_payment: 'Less than the top-up requested',
  over_payment: 'More than the top-up requested',
  no_pending_top_up: 'No pending top-up for this seller',
  typo_corrected: 'Reference read with one typo',
};
const candidateLabel = (c: BankLine['candidates'][number]) =>
  `#${c.id} ${c.seller_name}: ${formatMoney({ minor: c.amount, currency: c.currency })} requested`;

const view: QueueView<BankLine> = {
  key: 'adminBankLines',
  heading: 'Statement lines waiting for a person',
  noun: 'the statement lines',
  empty: 'No statement line is waiting.',
  keyOf: (l) => l.id,
  rowLabel: (l) => `Statement line #${l.id}`,
  columns: [
    {
      header: 'Line',
      cell: (l) => <TwoLines main={l.text || '(no text)'} sub={[l.booked_on, l.payer].filter(Boolean).join(' · ')} />,
    },
    { header: 'Amount', nowrap: true, cell: amountOf },
    { header: 'Why', cell: (l) => (l.reason ? REASONS[l.reason] : '') },
    {
      header: 'Candidate top-ups',
      cell: (l) =>
        l.candidates.length === 0 ? (
          <span className={muted}>None</span>
        ) : (
          <ul className={css({ listStyle: 'none', p: 0, m: 0 })}>
            {l.candidates.map((c) => (
              <li key={c.id}>{candidateLabel(c)}</li>
            ))}
          </ul>
        ),
    },
  ],
  approve: {
    label: 'Match',
    name: (l) => `Match statement line #${l.id}`,
    title: (l) => `Match statement line #${l.id}?`,
    restates: (l) => (
      <p>
        <strong>{amountOf(l)}</strong> arrived; it will be credited to the SB Pay wallet of the top-up you choose,
        whatever amount it requested. This cannot be undone.
      </p>
    ),
    fields: [
      {
        name: 'deposit_id',
        label: 'Top-up',
        kind: 'choice',
        options: (item) =>
          (item as BankLine).candidates.map((c) => ({ value: String(c.id), label: candidateLabel(c) })),
      },
    ],
    confirmLabel: (l) => `Credit ${amountOf(l)}`,
  },
  reject: {
    label: 'Dismiss',
    name: (l) => `Dismiss statement line #${l.id}`,
    title: (l) => `Dismiss statement line #${l.id}`,
    reasonLabel: 'Reason (kept in the audit log)',
    submitLabel: 'Dismiss',
  },
};

const STATEMENT_RULES = { types: ['xml', 'csv'], maxMb: 5 };

function StatementImport() {
  const actor = useViewActor(statementImportMachine, 'statementImport');
  const file = useSelector(actor, (s) => s?.context.file ?? null);
  const summary = useSelector(actor, (s) => (s?.matches('imported') ? s.context.summary : null));
  const problem = useSelector(actor, (s) => (s?.matches('refused') ? s.context.problem : null));
  const submitting = useSelector(actor, (s) => s?.hasTag('submitting') ?? false);
  const canImport = useSelector(actor, (s) => s?.can({ type: 'import.submitted' }) ?? false);
  return (
    <section
      aria-labelledby="statement-import"
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' })}
    >
      <h2 id="statement-import" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Import a bank statement
      </h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        ISO 20022 CAMT.053 (XML) or the bank's CSV export. Each credit line that names one pending top-up of its amount
        is credited at once; the others wait below.
      </p>
      <form
        noValidate
        className={css({ display: 'grid', gap: '3', maxWidth: '32rem' })}
        onSubmit={(e) => {
          e.preventDefault();
          actor?.send({ type: 'import.submitted' });
        }}
      >
        <FileField
          label="Statement file"
          rules={STATEMENT_RULES}
          file={file}
          required
          disabled={submitting}
          error={problem}
          onFileChange={(chosen) => actor?.send({ type: 'file.chosen', file: chosen })}
        />
        <div>
          <Button
            type="submit"
            disabled={!canImport}
            busy={submitting}
            whyDisabled={file ? null : 'Choose a statement file first.'}
          >
            Import
          </Button>
        </div>
      </form>
      {summary ? (
        <p role="status" className={css({ fontSize: 'sm' })}>
          {summary.credit_lines} credit lines read: <strong>{summary.credited} credited</strong> without a person,{' '}
          <strong>{summary.to_review} to review</strong>, {summary.already_imported} already imported,{' '}
          {summary.skipped_lines} skipped (debits).
        </p>
      ) : null}
    </section>
  );
}

/** /admin/bank-statements: import a statement; the lines it could not credit, to match or dismiss by hand. */
export default function AdminBankStatementsPage() {
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <StatementImport />
      <QueuePage machine={bankLineQueueMachine} view={view} />
    </div>
  );
}
