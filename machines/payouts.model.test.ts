import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { type PayoutSummary, payoutsMachine } from './payouts.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const bank = {
  id: 1,
  bank_account_id: 1,
  holder_name: 'Sam Seller',
  iban_masked: 'GB•• •••• 5432',
  iban_last4: '5432',
  country: 'GB',
  bic: 'NWBKGB2L',
  is_default: true,
  created_at: '2026-11-22T09:00:00.000Z',
};
const summary: PayoutSummary = {
  balances: [{ currency: 'GBP', available: 50_000, pending: 1_000, in_flight: 0, paid_out: 0 }],
  bank_account: bank,
  minimum: 2_000,
  fee: 100,
  next_payout: {
    can_request: true,
    message: 'You can request a payout now.',
    run_at: '2026-11-30T12:00:00.000Z',
    arrives_by: '2026-12-01',
  },
};
const poor: PayoutSummary = {
  ...summary,
  balances: [{ ...(summary.balances[0] as PayoutSummary['balances'][0]), available: 1_999 }],
};
const payout = {
  payout_id: 9,
  reference: 'PO-000009',
  currency: 'GBP',
  amount: 50_000,
  fee: 100,
  net: 49_900,
  status: 'requested',
  status_label: 'In progress',
  bank_account: bank,
  failure_reason: null,
  orders_count: 2,
  created_at: '2026-11-22T09:00:00.000Z',
  decided_at: null,
} as const;
const file = {
  name: 'payouts.csv',
  mime: 'text/csv',
  size: 3,
  rows: 1,
  columns: ['Reference'],
  content_base64: 'eA==',
};
const form = { account_holder: 'Sam Seller', iban: 'GB82WEST12345698765432', swift: 'NWBKGB2L', password: 'x' };
const ACTORS = ['loadSummary', 'reloadSummary', 'requestPayout', 'saveBank', 'loadDetails', 'exportFile'] as const;

const events = [
  { type: 'xstate.done.actor.loadSummary', output: summary },
  { type: 'xstate.done.actor.loadSummary', output: poor },
  { type: 'xstate.error.actor.loadSummary', error: new Error('down') },
  { type: 'xstate.done.actor.reloadSummary', output: summary },
  { type: 'xstate.error.actor.reloadSummary', error: new Error('down') },
  { type: 'xstate.done.actor.requestPayout', output: payout },
  { type: 'xstate.error.actor.requestPayout', error: new Error('too large') },
  { type: 'xstate.done.actor.saveBank', output: bank },
  { type: 'xstate.error.actor.saveBank', error: new Error('bad IBAN') },
  { type: 'xstate.done.actor.loadDetails', output: { payout, orders: [] } },
  { type: 'xstate.error.actor.loadDetails', error: new Error('down') },
  { type: 'xstate.done.actor.exportFile', output: file },
  { type: 'xstate.error.actor.exportFile', error: new Error('down') },
  { type: 'summary.retried' },
  { type: 'summary.reload' },
  { type: 'request.opened', currency: 'GBP' },
  { type: 'request.amountChanged', amount: 2_500 },
  { type: 'request.amountChanged', amount: 50_001 },
  { type: 'request.submitted' },
  { type: 'request.cancelled' },
  { type: 'bank.opened' },
  { type: 'bank.submitted', form },
  { type: 'bank.cancelled' },
  { type: 'details.opened', payoutId: 9 },
  { type: 'details.closed' },
  { type: 'export.requested', format: 'csv' },
];

function start() {
  const control = controllableActors(ACTORS);
  const told: Array<{ type: string }> = [];
  const history = createMachine({ on: { '*': { actions: ({ event }) => told.push(event) } } });
  const actor = createActor(payoutsMachine.provide({ actors: { ...control.actors, history: history as never } }));
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, told, emitted };
}

describe('payouts statechart, model-based', () => {
  const paths = modelPaths(payoutsMachine, {
    events,
    settling: [...ACTORS],
    identity: (s) => [s.value, s.context.summary?.balances[0]?.available ?? null, s.context.ask?.amount ?? null],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(payoutsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { actor, control, emitted } = start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // a payout is only asked for when it is at least the minimum and at most what is available
          const asked = control.pending('requestPayout');
          if (asked) {
            const input = asked.input as { amount: number; key: string };
            expect(input.amount).toBeGreaterThanOrEqual(summary.minimum);
            expect(input.amount).toBeLessThanOrEqual(summary.balances[0]?.available ?? 0);
            expect(input.key).toBe(real.context.idempotencyKey);
          }
          // spec section 8: payout calls that fail are only logged, never toasted
          for (const e of emitted) if (e.type === 'notify') expect((e as { level?: string }).level).toBe('success');
        },
      );
      actor.stop();
      log.mockRestore();
    });
  }
});

describe('payouts statechart', () => {
  it("opens the payout clicked last when another is clicked while the first one's details load", () => {
    const { actor, control } = start();
    actor.send({ type: 'details.opened', payoutId: 1 });
    expect(control.pending('loadDetails')?.input).toEqual({ payoutId: 1 });
    actor.send({ type: 'details.opened', payoutId: 2 });
    expect(control.pending('loadDetails')?.input).toEqual({ payoutId: 2 });
    expect(actor.getSnapshot().matches({ details: 'loading' })).toBe(true);
  });

  it('keeps the idempotency key when the same payout is sent again after a failure, renews it after success', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.loadSummary', output: summary });
    actor.send({ type: 'request.opened', currency: 'GBP' });
    actor.send({ type: 'request.submitted' });
    const first = (control.pending('requestPayout')?.input as { key: string } | undefined)?.key;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await control.settle({ type: 'xstate.error.actor.requestPayout', error: new Error('network') });
    actor.send({ type: 'request.submitted' });
    expect((control.pending('requestPayout')?.input as { key: string } | undefined)?.key).toBe(first);
    await control.settle({ type: 'xstate.done.actor.requestPayout', output: payout });
    expect(actor.getSnapshot().context.idempotencyKey).not.toBe(first);
    expect(actor.getSnapshot().matches({ summary: 'reloading' })).toBe(true);
  });

  it('offers no request below the minimum', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.loadSummary', output: poor });
    actor.send({ type: 'request.opened', currency: 'GBP' });
    expect(actor.getSnapshot().can({ type: 'request.submitted' })).toBe(false);
  });

  it('sends the amount typed, renewing the key when the amount changes; none below the minimum or above the balance', async () => {
    const { actor, control } = start();
    await control.settle({ type: 'xstate.done.actor.loadSummary', output: summary });
    actor.send({ type: 'request.opened', currency: 'GBP' });
    expect(actor.getSnapshot().context.ask).toEqual({ currency: 'GBP', amount: 50_000 });
    const opened = actor.getSnapshot().context.idempotencyKey;
    for (const amount of [null, 1_999, 50_001]) {
      actor.send({ type: 'request.amountChanged', amount });
      expect(actor.getSnapshot().can({ type: 'request.submitted' })).toBe(false);
    }
    actor.send({ type: 'request.amountChanged', amount: 2_000 });
    const key = actor.getSnapshot().context.idempotencyKey;
    expect(key).not.toBe(opened);
    actor.send({ type: 'request.submitted' });
    expect(control.pending('requestPayout')?.input).toEqual({ currency: 'GBP', amount: 2_000, key });
  });
});
