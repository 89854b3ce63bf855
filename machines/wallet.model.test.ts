import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventObject } from 'xstate';
import { ApiError } from '../openapi/client';
import { depositRow } from './testing/deposits';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';
import {
  type CsvRows,
  type DepositFilters,
  PROOF_ADDED,
  type ProofFile,
  type TransactionFilters,
  WALLET_POLL_MS,
  type WalletContext,
  type WalletDeposit,
  type WalletDetail,
  type WalletDetails,
  type WalletTransaction,
  walletMachine,
} from './wallet.machine';

const details = (pending: number, balance = 0): WalletDetails => ({
  reference: 'SBP000001-23',
  balances: [{ currency: 'GBP', balance, pending }],
});
/** A deposit pending admin approval; an admin decided it; another one came in meanwhile. */
const waiting = details(5_000);
const decided = details(0, 5_000);
const another = details(7_000, 5_000);

const withoutProof = depositRow();
const receipt = { name: 'receipt.pdf', kind: 'pdf', size: 8 };
const approvedWithProof = depositRow({ deposit_id: 8, status: 'approved', status_label: 'approved', proof: receipt });
/** Decided without a proof: none can be added any more. */
const rejectedWithoutProof = depositRow({
  deposit_id: 9,
  status: 'rejected',
  status_label: 'rejected',
  rejection_reason: 'No transfer arrived',
});
const transaction: WalletTransaction = {
  id: 3,
  entry_id: 11,
  type: 'deposit',
  description: 'Deposit SBP000001-23',
  amount: 5_000,
  currency: 'GBP',
  balance_after: 5_000,
  deposit_id: 8,
  created_at: '2026-11-23T09:00:00.000Z',
};
const proofFile: ProofFile = {
  name: 'receipt.pdf',
  kind: 'pdf',
  mime: 'application/pdf',
  size: 8,
  content_base64: 'JVBERg==',
};
const chosen = new File(['%PDF-1.4'], 'receipt.pdf', { type: 'application/pdf' });
const depositFilters: DepositFilters = { from: '2026-11-01', to: '2026-11-30', status: 'pending' };
const transactionFilters: TransactionFilters = { from: null, to: null, type: 'deposit' };
const rows: CsvRows = { kind: 'deposits', rows: [withoutProof] };
const decidedAlready = new ApiError(409, 'This deposit request is already decided.');

const events = [
  { type: 'xstate.done.actor.loadDetails', output: waiting },
  { type: 'xstate.done.actor.loadDetails', output: decided },
  { type: 'xstate.error.actor.loadDetails', error: new ApiError(500, 'Failed to fetch data') },
  { type: 'xstate.done.actor.refreshDetails', output: waiting },
  { type: 'xstate.done.actor.refreshDetails', output: decided },
  { type: 'xstate.done.actor.refreshDetails', output: another },
  { type: 'xstate.error.actor.refreshDetails', error: new ApiError(0, 'offline') },
  { type: 'after.poll' },
  { type: 'details.retried' },
  { type: 'wallet.refreshed' },
  { type: 'detail.opened', detail: { kind: 'deposit', deposit: withoutProof } },
  { type: 'detail.opened', detail: { kind: 'deposit', deposit: approvedWithProof } },
  { type: 'detail.opened', detail: { kind: 'deposit', deposit: rejectedWithoutProof } },
  { type: 'detail.opened', detail: { kind: 'transaction', transaction } },
  { type: 'detail.closed' },
  { type: 'proof.requested' },
  { type: 'proof.chosen', file: chosen },
  { type: 'xstate.done.actor.addProof', output: { ...withoutProof, proof: receipt } },
  { type: 'xstate.error.actor.addProof', error: decidedAlready },
  { type: 'xstate.done.actor.loadProof', output: proofFile },
  { type: 'xstate.done.actor.loadProof', output: null },
  { type: 'xstate.error.actor.loadProof', error: new Error('offline') },
  { type: 'csv.requested', kind: 'deposits', filters: depositFilters },
  { type: 'csv.requested', kind: 'transactions', filters: transactionFilters },
  { type: 'xstate.done.actor.exportRows', output: rows },
  { type: 'xstate.error.actor.exportRows', error: new Error('offline') },
];

/** Every toast the wallet may show. */
const MESSAGES = [
  PROOF_ADDED,
  decidedAlready.message,
  'This request was sent without a proof.',
  'Failed to load the proof',
  'Failed to export the CSV',
];

const pendingOf = (d: WalletDetails | null) => d?.balances.reduce((sum, b) => sum + b.pending, 0) ?? 0;
const depositOf = (d: WalletDetail | null) => (d?.kind === 'deposit' ? d.deposit : null);

/** What the guards read: the figures, and the open row's kind, status and proof. */
const identity = ({ value, context }: { value: unknown; context: WalletContext }) => {
  const open = depositOf(context.detail);
  return [
    value,
    context.details?.balances ?? null,
    context.detail?.kind ?? null,
    open ? [open.status, open.proof !== null] : null,
  ];
};

const start = () =>
  startWithStandIns(walletMachine, {
    settled: ['loadDetails', 'loadProof', 'addProof', 'exportRows'],
    invokedAs: { refreshDetails: 'loadDetails' },
    listening: { children: ['deposits', 'transactions'], system: ['menuCounts'] },
    delays: { poll: WALLET_POLL_MS },
  });

describe('wallet statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(walletMachine, {
    events,
    identity,
    invariant:
      'the figures are the last ones that differed; it polls exactly while a deposit is pending; each reload of the figures, changed poll and added proof reloads both histories, a changed poll also the menu counts; a proof is asked for only of a deposit that has one and added only to a pending one without; an export sends the history and filters asked for',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(walletMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = start();
      let shown: WalletDetails | null = null;
      let open: WalletDetail | null = null;
      let reloads = 0;
      let counts = 0;
      let proofs = 0;
      let csvAsked: unknown = null;
      let csvs = 0;
      await replay(
        path,
        run.actor,
        (event) => {
          const before = run.actor.getSnapshot();
          const e = event as EventObject & {
            output?: unknown;
            detail?: WalletDetail;
            kind?: string;
            filters?: unknown;
          };
          if (e.type === 'xstate.done.actor.loadDetails') shown = e.output as WalletDetails;
          if (e.type === 'xstate.done.actor.refreshDetails') {
            const next = e.output as WalletDetails;
            if (JSON.stringify(next.balances) !== JSON.stringify(shown?.balances)) {
              shown = next;
              reloads++;
              counts++;
            }
          }
          if (e.type === 'wallet.refreshed') reloads++;
          if (e.type === 'detail.opened') open = e.detail ?? null;
          if (e.type === 'detail.closed') open = null;
          if (e.type === 'xstate.done.actor.addProof') {
            open = { kind: 'deposit', deposit: e.output as WalletDeposit };
            reloads++;
          }
          if (e.type === 'xstate.done.actor.loadProof' && e.output) proofs++;
          if (e.type === 'csv.requested' && before.matches({ csv: 'idle' }))
            csvAsked = { kind: e.kind, filters: e.filters };
          if (e.type === 'xstate.done.actor.exportRows') csvs++;
          return run.perform(event);
        },
        (real) => {
          const { context } = real;
          // the figures
          if (real.matches({ details: 'loading' })) {
            expect(run.control.isPending('loadDetails')).toBe(true);
            expect(real.hasTag('loading')).toBe(true);
          }
          expect(real.hasTag('error')).toBe(real.matches({ details: 'failed' }));
          if (real.matches({ details: 'ready' })) expect(context.details).toEqual(shown);
          if (real.matches({ details: { ready: 'idle' } })) expect(pendingOf(context.details)).toBe(0);
          if (real.matches({ details: { ready: 'watching' } })) expect(pendingOf(context.details)).toBeGreaterThan(0);
          if (real.matches({ details: { ready: 'refreshing' } }))
            expect(run.control.isPending('loadDetails')).toBe(true);
          expect(run.heard('deposits')).toEqual(Array(reloads).fill({ type: 'list.refreshed' }));
          expect(run.heard('transactions')).toEqual(Array(reloads).fill({ type: 'list.refreshed' }));
          expect(run.heard('menuCounts')).toEqual(Array(counts).fill({ type: 'counts.refreshed' }));
          // the open row
          expect(context.detail).toEqual(real.matches({ detail: 'closed' }) ? null : open);
          expect(context.proof).toBeNull();
          const row = depositOf(context.detail);
          if (real.matches({ detail: { open: 'loadingProof' } })) {
            expect(row?.proof).not.toBeNull();
            expect(run.control.pending('loadProof')?.input).toEqual({ id: row?.deposit_id });
          }
          if (real.matches({ detail: { open: 'addingProof' } })) {
            expect(row).toMatchObject({ status: 'pending', proof: null });
            const sent = run.control.pending('addProof')?.input as { id: number; file: File; key: string };
            expect(sent).toMatchObject({ id: row?.deposit_id, file: chosen });
            expect(sent.key).toMatch(/^[0-9a-f-]{36}$/);
          }
          expect(real.hasTag('addingProof')).toBe(real.matches({ detail: { open: 'addingProof' } }));
          expect(real.hasTag('loadingProof')).toBe(real.matches({ detail: { open: 'loadingProof' } }));
          // the export
          if (real.matches({ csv: 'exporting' })) {
            expect(run.control.pending('exportRows')?.input).toEqual(csvAsked);
            expect(real.hasTag('exporting')).toBe(true);
          } else expect(run.control.isPending('exportRows')).toBe(false);
          expect(run.emitted.filter((e) => e.type === 'csv.ready')).toEqual(
            Array(csvs).fill({ type: 'csv.ready', ...rows }),
          );
          expect(run.emitted.filter((e) => e.type === 'proof.ready')).toEqual(
            Array(proofs).fill({ type: 'proof.ready', proof: proofFile }),
          );
          for (const e of run.emitted) if (e.type === 'notify') expect(MESSAGES).toContain(e.message);
        },
      );
      await run.stop();
    });
  }
});
