import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, setup } from 'xstate';
import { type AdminDeposit, depositQueueMachine } from './admin/queues';
import { depositMachine } from './deposit.machine';
import { sellerPanelMachine } from './seller-panel.machine';
import { PROOF_ADDED, WALLET_POLL_MS, type WalletDeposit, type WalletDetails, walletMachine } from './wallet.machine';

/** An actor that writes down every event it hears. */
// `never` fits every actor slot of `provide`, as the model harness's stand-ins do
const recorder = (heard: string[], name: string) =>
  createMachine({ on: { '*': { actions: ({ event }) => heard.push(`${name}:${event.type}`) } } }) as never;

const details = (pending: number, balance = 0): WalletDetails => ({
  reference: 'SBP000001-23',
  balances: [{ currency: 'GBP', balance, pending }],
});

describe('the wallet: live while a deposit is pending', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(answers: WalletDetails[]) {
    const heard: string[] = [];
    let calls = 0;
    const wallet = walletMachine.provide({
      actors: {
        loadDetails: fromPromise(async () => answers[Math.min(calls++, answers.length - 1)] as WalletDetails),
        deposits: recorder(heard, 'deposits'),
        transactions: recorder(heard, 'transactions'),
      },
    });
    // the wallet and the menu counts in one actor system, as in the app
    const counts = createMachine({ on: { '*': { actions: ({ event }) => heard.push(`counts:${event.type}`) } } });
    const app = setup({ actors: { wallet, counts } }).createMachine({
      invoke: [
        { id: 'wallet', src: 'wallet', systemId: 'wallet' },
        { id: 'counts', src: 'counts', systemId: 'menuCounts' },
      ],
    });
    const actor = createActor(app).start();
    const walletRef = actor.system.get('wallet');
    return { heard, calls: () => calls, wallet: walletRef, stop: () => actor.stop() };
  }

  it('asks again while a deposit is pending; a decision reloads both histories and the menu counts', async () => {
    const run = start([details(5000), details(5000), details(0, 5000)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(run.wallet.getSnapshot().matches({ details: { ready: 'watching' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(WALLET_POLL_MS);
    // same figures: nothing reloads
    expect(run.calls()).toBe(2);
    expect(run.heard).toEqual([]);
    await vi.advanceTimersByTimeAsync(WALLET_POLL_MS);
    expect(run.calls()).toBe(3);
    expect(run.heard).toEqual(['deposits:list.refreshed', 'transactions:list.refreshed', 'counts:counts.refreshed']);
    expect(run.wallet.getSnapshot().context.details).toEqual(details(0, 5000));
    // nothing pending any more: no more polls
    expect(run.wallet.getSnapshot().matches({ details: { ready: 'idle' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(WALLET_POLL_MS * 5);
    expect(run.calls()).toBe(3);
    run.stop();
  });

  it('nothing pending: it does not poll', async () => {
    const run = start([details(0, 100)]);
    await vi.advanceTimersByTimeAsync(WALLET_POLL_MS * 5);
    expect(run.calls()).toBe(1);
    run.stop();
  });

  it('a submitted top-up reloads the wallet through the actor system', async () => {
    const heard: string[] = [];
    let loads = 0;
    const wallet = walletMachine.provide({
      actors: {
        loadDetails: fromPromise(async () => details(loads++ === 0 ? 0 : 700)),
        deposits: recorder(heard, 'deposits'),
        transactions: recorder(heard, 'transactions'),
      },
    });
    const deposit = depositMachine.provide({
      actors: {
        loadCurrencies: fromPromise(async () => []) as never,
        loadBankDetails: fromPromise(() => new Promise<never>(() => {})) as never,
        submitDeposit: fromPromise(async () => ({ deposit_id: 1 })) as never,
      },
    });
    const app = setup({ actors: { wallet, deposit } }).createMachine({
      invoke: [
        { id: 'wallet', src: 'wallet', systemId: 'wallet' },
        { id: 'deposit', src: 'deposit', input: { currency: 'GBP' } },
      ],
    });
    const actor = createActor(app).start();
    await vi.advanceTimersByTimeAsync(0);
    const panel = actor.getSnapshot().children.deposit;
    panel?.send({ type: 'field.changed', field: 'deposit_amount', value: 700 });
    panel?.send({ type: 'field.changed', field: 'payment_transfer_by', value: 'ONLINE' });
    panel?.send({ type: 'form.submitted' });
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toEqual(['deposits:list.refreshed', 'transactions:list.refreshed']);
    expect(actor.system.get('wallet').getSnapshot().context.details).toEqual(details(700));
    actor.stop();
  });
});

const deposit3 = { id: 3 } as AdminDeposit;

describe('the back office: one decision at a time', () => {
  it('a double click on Approve opens one confirmation; Confirm sends one approval, then reloads the queue', async () => {
    const heard: string[] = [];
    let approvals = 0;
    let finish = () => {};
    const actor = createActor(
      depositQueueMachine.provide({
        actors: {
          queue: recorder(heard, 'queue'),
          approve: fromPromise(() => {
            approvals++;
            return new Promise((resolve) => {
              finish = () => resolve({ id: 3, status: 'approved' });
            });
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'approve.started', item: deposit3 });
    actor.send({ type: 'approve.started', item: deposit3 });
    actor.send({ type: 'reject.started', item: deposit3 });
    expect(approvals).toBe(0);
    actor.send({ type: 'approve.confirmed' });
    actor.send({ type: 'approve.confirmed' });
    expect(approvals).toBe(1);
    expect(actor.getSnapshot().hasTag('deciding')).toBe(true);
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().matches({ decision: 'idle' })).toBe(true);
    expect(heard).toEqual(['queue:list.refreshed']);
  });

  it('a rejection needs a reason', () => {
    const actor = createActor(depositQueueMachine.provide({ actors: { queue: recorder([], 'queue') } })).start();
    actor.send({ type: 'reject.started', item: { id: 4 } as AdminDeposit });
    expect(actor.getSnapshot().can({ type: 'reject.confirmed' })).toBe(false);
    actor.send({ type: 'reason.changed', reason: '   ' });
    expect(actor.getSnapshot().can({ type: 'reject.confirmed' })).toBe(false);
    actor.send({ type: 'reason.changed', reason: 'No transfer arrived' });
    expect(actor.getSnapshot().can({ type: 'reject.confirmed' })).toBe(true);
  });
});

describe('the seller panel', () => {
  it('opens the carousel at the current level and moves within the three', async () => {
    const level = (n: number, active: 0 | 1) => ({
      level: n,
      name: `Level ${n}`,
      is_active: active,
      quarterly_gtv: 0,
      benefits: [],
    });
    const actor = createActor(
      sellerPanelMachine.provide({
        actors: {
          loadLevels: fromPromise(async () => ({
            summary: {} as never,
            levels: [level(1, 0), level(2, 1), level(3, 0)],
          })) as never,
        },
      }),
    ).start();
    actor.send({ type: 'panel.toggled' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.index).toBe(1);
    actor.send({ type: 'level.next' });
    expect(actor.getSnapshot().context.index).toBe(2);
    expect(actor.getSnapshot().can({ type: 'level.next' })).toBe(false);
    actor.send({ type: 'level.previous' });
    actor.send({ type: 'level.previous' });
    expect(actor.getSnapshot().context.index).toBe(0);
    expect(actor.getSnapshot().can({ type: 'level.previous' })).toBe(false);
  });
});

describe('the wallet: a proof sent after the request', () => {
  const pending = (over: Partial<WalletDeposit> = {}): WalletDeposit =>
    ({
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
      created_at: '2026-11-23T08:00:00.000Z',
      expected_by: '2026-11-24T08:00:00.000Z',
      decided_at: null,
      ...over,
    }) as WalletDeposit;
  const receipt = new File(['%PDF-1.4'], 'receipt.pdf', { type: 'application/pdf' });

  function start(addProof: (input: { id: number; file: File; key: string }) => Promise<WalletDeposit>) {
    const heard: string[] = [];
    const inputs: { id: number; file: File; key: string }[] = [];
    const wallet = walletMachine.provide({
      actors: {
        loadDetails: fromPromise(async () => details(0)),
        deposits: recorder(heard, 'deposits'),
        transactions: recorder(heard, 'transactions'),
        addProof: fromPromise(async ({ input }: { input: { id: number; file: File; key: string } }) => {
          inputs.push(input);
          return addProof(input);
        }),
      },
    });
    const actor = createActor(wallet);
    actor.on('*', (e) => heard.push(`emit:${e.type}:${'message' in e ? e.message : ''}`));
    actor.start();
    return { actor, heard, inputs };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('adds the proof to the open pending request, shows it, reloads the histories and says so', async () => {
    const run = start(async ({ id }) =>
      pending({ deposit_id: id, proof: { name: 'receipt.pdf', kind: 'pdf', size: 8 } }),
    );
    run.actor.send({ type: 'detail.opened', detail: { kind: 'deposit', deposit: pending() } });
    run.actor.send({ type: 'proof.chosen', file: receipt });
    expect(run.actor.getSnapshot().hasTag('addingProof')).toBe(true);
    await settle();
    expect(run.inputs).toHaveLength(1);
    expect(run.inputs[0]).toMatchObject({ id: 7, file: receipt });
    expect(run.inputs[0]?.key.length).toBeGreaterThanOrEqual(8);
    const detail = run.actor.getSnapshot().context.detail;
    expect(detail?.kind === 'deposit' && detail.deposit.proof?.name).toBe('receipt.pdf');
    expect(run.heard).toEqual(['deposits:list.refreshed', 'transactions:list.refreshed', `emit:notify:${PROOF_ADDED}`]);
    // now it has one: another choice is not sent
    run.actor.send({ type: 'proof.chosen', file: receipt });
    expect(run.actor.getSnapshot().hasTag('addingProof')).toBe(false);
    run.actor.stop();
  });

  it("a refusal keeps the request as it was and shows the server's message", async () => {
    const run = start(async () => {
      throw new Error('This deposit request is already decided.');
    });
    run.actor.send({ type: 'detail.opened', detail: { kind: 'deposit', deposit: pending() } });
    run.actor.send({ type: 'proof.chosen', file: receipt });
    await settle();
    expect(run.heard).toEqual(['emit:notify:This deposit request is already decided.']);
    const detail = run.actor.getSnapshot().context.detail;
    expect(detail?.kind === 'deposit' && detail.deposit.proof).toBeNull();
    expect(run.actor.getSnapshot().matches({ detail: { open: 'shown' } })).toBe(true);
    run.actor.stop();
  });

  it('never sends a proof for a decided request or one that has a proof', () => {
    const run = start(async () => pending());
    for (const deposit of [
      pending({ status: 'approved', status_label: 'approved' }),
      pending({ proof: { name: 'a.png', kind: 'png', size: 1 } }),
    ]) {
      run.actor.send({ type: 'detail.opened', detail: { kind: 'deposit', deposit } });
      run.actor.send({ type: 'proof.chosen', file: receipt });
      expect(run.actor.getSnapshot().hasTag('addingProof')).toBe(false);
    }
    expect(run.inputs).toEqual([]);
    run.actor.stop();
  });
});
