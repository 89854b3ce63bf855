import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { DEPOSIT_FAILED, DEPOSIT_SENT, type DepositContext, depositMachine } from './deposit.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const currencies = [
  { code: 'GBP', name: 'Pound sterling', symbol: '£', minor_unit: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', minor_unit: 2 },
];
const bank = {
  account_name: 'SB Portal Ltd',
  iban: 'GB00TEST',
  swiftcode: null,
  reference: 'SBP000001-23',
  currency: 'GBP',
};
const deposit = {
  deposit_id: 7,
  amount: 5000,
  currency: 'GBP',
  payment_transfer_by: 'ONLINE',
  notes: null,
  reference: 'SBP000001-23',
  status: 'pending',
  status_label: 'pending admin approval',
  rejection_reason: null,
  proof: null,
  created_at: '2026-11-22T10:00:00.000Z',
  expected_by: '2026-11-23T10:00:00.000Z',
  decided_at: null,
};
const refused422 = new ApiError(422, 'Validation failed', [{ path: '/body/deposit_amount', message: 'must be >= 1' }]);

const events = [
  { type: 'xstate.done.actor.loadCurrencies', output: currencies },
  { type: 'xstate.error.actor.loadCurrencies', error: new Error('down') },
  { type: 'xstate.done.actor.loadBankDetails', output: bank },
  { type: 'xstate.error.actor.loadBankDetails', error: new Error('down') },
  { type: 'xstate.done.actor.submitDeposit', output: deposit },
  { type: 'xstate.error.actor.submitDeposit', error: refused422 },
  { type: 'xstate.error.actor.submitDeposit', error: new ApiError(500, 'boom') },
  { type: 'field.changed', field: 'currency', value: 'GBP' },
  { type: 'field.changed', field: 'currency', value: 'EUR' },
  { type: 'field.changed', field: 'payment_transfer_by', value: 'ONLINE' },
  { type: 'field.changed', field: 'deposit_amount', value: 5000 },
  // complete but not valid: more than a request may be
  { type: 'field.changed', field: 'deposit_amount', value: 100_000_001 },
  { type: 'field.changed', field: 'proof', value: new File(['%PDF-1.4'], 'proof.pdf', { type: 'application/pdf' }) },
  { type: 'form.submitted' },
  { type: 'upload.progressed', fraction: 0.5 },
  { type: 'currencies.retried' },
  { type: 'bank.retried' },
];

const keyOf = (pending: { input: unknown } | undefined) => (pending?.input as { key?: string } | undefined)?.key;

const complete = (c: DepositContext) =>
  c.values.deposit_amount !== null && c.values.currency !== null && c.values.payment_transfer_by !== null;

// what makes two snapshots alike for the path search: the state, and what the guards read
const identity = (s: { value: unknown; context: DepositContext }) => ({
  value: s.value,
  complete: complete(s.context),
  big: (s.context.values.deposit_amount ?? 0) > 100_000_000,
  currency: s.context.values.currency,
  bank: s.context.bank?.currency ?? null,
  proof: s.context.values.proof !== null,
});

describe('deposit (top-up panel) statechart, model-based', () => {
  const paths = modelPaths(depositMachine, { events, input: {}, identity });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(depositMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['loadCurrencies', 'loadBankDetails', 'submitDeposit'] as const);
      let keys = 0;
      const actor = createActor(depositMachine.provide({ actors: control.actors }), {
        input: { makeKey: () => `key-${++keys}` },
      });
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      let sentKey: string | null = null;
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('xstate.')) {
            const sent = control.pending('submitDeposit');
            if (event.type.endsWith('submitDeposit') && sent) sentKey = (sent.input as { key: string }).key;
          }
          return control.settle(event);
        },
        (real) => {
          const context = real.context as DepositContext;
          // Submit is possible exactly when amount, currency and method are given
          if (real.matches({ open: { form: 'editing' } })) {
            expect(real.can({ type: 'form.submitted' })).toBe(complete(context));
          }
          if (real.hasTag('submitting')) {
            expect(control.isPending('submitDeposit')).toBe(true);
            expect(context.progress === null).toBe(context.values.proof === null);
          } else expect(context.progress).toBeNull();
          if (real.matches({ open: { form: 'failed' } })) expect(toasts.at(-1)).toBe(DEPOSIT_FAILED);
          if (real.matches({ open: { bank: 'shown' } })) expect(context.bank).toEqual(bank);
          if (real.matches({ open: { bank: 'loading' } })) expect(context.bank).toBeNull();
          if (real.matches('submitted')) {
            expect(real.status).toBe('done');
            expect(real.output).toEqual(deposit);
            expect(toasts.at(-1)).toBe(DEPOSIT_SENT);
            expect(sentKey).toMatch(/^key-\d+$/);
          }
        },
      );
    });
  }

  it('a failed request sent again unchanged keeps its key; a changed one gets a new key', async () => {
    const control = controllableActors(['loadCurrencies', 'loadBankDetails', 'submitDeposit'] as const);
    let keys = 0;
    const actor = createActor(depositMachine.provide({ actors: control.actors }), {
      input: { currency: 'GBP', makeKey: () => `key-${++keys}` },
    }).start();
    actor.send({ type: 'field.changed', field: 'deposit_amount', value: 5000 });
    actor.send({ type: 'field.changed', field: 'payment_transfer_by', value: 'CASH' });
    actor.send({ type: 'form.submitted' });
    const first = keyOf(control.pending('submitDeposit'));
    await control.settle({ type: 'xstate.error.actor.submitDeposit', error: new ApiError(0, 'offline') });
    actor.send({ type: 'form.submitted' });
    expect(keyOf(control.pending('submitDeposit'))).toBe(first);
    await control.settle({ type: 'xstate.error.actor.submitDeposit', error: new ApiError(0, 'offline') });
    actor.send({ type: 'field.changed', field: 'deposit_amount', value: 6000 });
    actor.send({ type: 'form.submitted' });
    expect(keyOf(control.pending('submitDeposit'))).not.toBe(first);
  });

  it("the server's 422 shows under its field", async () => {
    const control = controllableActors(['loadCurrencies', 'loadBankDetails', 'submitDeposit'] as const);
    const actor = createActor(depositMachine.provide({ actors: control.actors }), {
      input: { currency: 'GBP' },
    }).start();
    actor.send({ type: 'field.changed', field: 'deposit_amount', value: 5000 });
    actor.send({ type: 'field.changed', field: 'payment_transfer_by', value: 'CASH' });
    actor.send({ type: 'form.submitted' });
    await control.settle({ type: 'xstate.error.actor.submitDeposit', error: refused422 });
    expect(actor.getSnapshot().context.errors).toEqual({ deposit_amount: 'must be >= 1' });
  });
});
