import { describe, expect, it } from 'vitest';
import { ApiError } from '../openapi/client';
import { type AdminDeposit, type AdminProof, adminDepositsMachine } from './admin-deposits.machine';
import { depositRow } from './testing/deposits';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';

const request: AdminDeposit = {
  ...depositRow({ deposit_id: 3, reference: 'SBP000009-03', proof: { name: 'receipt.pdf', kind: 'pdf', size: 8 } }),
  id: 3,
  seller_id: 9,
  seller_name: 'Sam Seller',
  seller_email: 'seller@demo.test',
};
const proof: AdminProof = {
  name: 'receipt.pdf',
  kind: 'pdf',
  mime: 'application/pdf',
  size: 8,
  content_base64: 'JVBERg==',
};
// written with spaces around it: the reason is sent trimmed
const REASON = '  No transfer arrived  ';
const alreadyRejected = new ApiError(409, 'This deposit request was already rejected.');
const alreadyApproved = new ApiError(409, 'This deposit request was already approved.');

const events = [
  { type: 'deposit.approved', id: 3 },
  { type: 'reject.started', id: 3 },
  { type: 'reason.changed', reason: REASON },
  { type: 'reason.changed', reason: '   ' },
  { type: 'reject.confirmed' },
  { type: 'reject.cancelled' },
  { type: 'proof.requested', id: 3 },
  {
    type: 'xstate.done.actor.approve',
    output: { ...request, status: 'approved', status_label: 'approved' } satisfies AdminDeposit,
  },
  { type: 'xstate.error.actor.approve', error: alreadyRejected },
  {
    type: 'xstate.done.actor.reject',
    output: {
      ...request,
      status: 'rejected',
      status_label: 'rejected',
      rejection_reason: REASON.trim(),
    } satisfies AdminDeposit,
  },
  { type: 'xstate.error.actor.reject', error: alreadyApproved },
  { type: 'xstate.done.actor.loadProof', output: proof },
  { type: 'xstate.done.actor.loadProof', output: null },
  { type: 'xstate.error.actor.loadProof', error: new Error('offline') },
];

/** Every toast the queue may show: the two decisions, the server's refusals, the proof's two failures. */
const MESSAGES = [
  'Deposit #3 approved',
  'Deposit #3 rejected',
  alreadyRejected.message,
  alreadyApproved.message,
  'This request was sent without a proof.',
  'Failed to load the proof',
];

const start = () =>
  startWithStandIns(adminDepositsMachine, {
    settled: ['approve', 'reject', 'loadProof'],
    listening: { children: ['queue'] },
  });

describe('back-office deposits statechart, model-based', () => {
  const paths = modelPaths(adminDepositsMachine, {
    events,
    invariant:
      'the request decided is the one picked; a rejection is sent only with its reason, trimmed; every settled approval and every accepted rejection reloads the queue (a refused rejection keeps the dialog); a proof opens only when the server sent one',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminDepositsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = start();
      let reloads = 0;
      let proofs = 0;
      await replay(
        path,
        run.actor,
        (event) => {
          if (/^xstate\.(done|error)\.actor\.approve$/.test(event.type) || event.type === 'xstate.done.actor.reject')
            reloads++;
          if (event.type === 'xstate.done.actor.loadProof' && (event as { output?: unknown }).output) proofs++;
          return run.perform(event);
        },
        (real) => {
          const { context } = real;
          const decision = (real.value as { decision: string }).decision;
          if (decision === 'idle') expect(context).toEqual({ id: null, reason: '' });
          else expect(context.id).toBe(3);
          // one decision at a time, and only the one the state names
          if (decision === 'approving') expect(run.control.pending('approve')?.input).toEqual({ id: 3 });
          else expect(run.control.isPending('approve')).toBe(false);
          if (decision === 'rejecting')
            expect(run.control.pending('reject')?.input).toEqual({ id: 3, reason: 'No transfer arrived' });
          else expect(run.control.isPending('reject')).toBe(false);
          expect(real.hasTag('deciding')).toBe(decision === 'approving' || decision === 'rejecting');
          if (decision === 'writingReason')
            expect(real.can({ type: 'reject.confirmed' })).toBe(context.reason.trim().length > 0);
          if (real.matches({ proof: 'loading' })) {
            expect(run.control.pending('loadProof')?.input).toEqual({ id: 3 });
            expect(real.hasTag('loadingProof')).toBe(true);
          } else expect(real.hasTag('loadingProof')).toBe(false);
          expect(run.heard('queue').map((e) => e.type)).toEqual(Array(reloads).fill('list.refreshed'));
          expect(run.emitted.filter((e) => e.type === 'proof.ready')).toEqual(
            Array(proofs).fill({ type: 'proof.ready', proof }),
          );
          for (const e of run.emitted) if (e.type === 'notify') expect(MESSAGES).toContain(e.message);
        },
      );
      await run.stop();
    });
  }
});

describe('back-office deposits statechart, examples', () => {
  it('a refused rejection keeps the dialog and the reason, and names the refusal; Cancel forgets both', async () => {
    const run = start();
    run.actor.send({ type: 'reject.started', id: 3 });
    run.actor.send({ type: 'reason.changed', reason: REASON });
    run.actor.send({ type: 'reject.confirmed' });
    await run.perform({ type: 'xstate.error.actor.reject', error: alreadyApproved } as never);
    expect(run.actor.getSnapshot().matches({ decision: 'writingReason' })).toBe(true);
    expect(run.actor.getSnapshot().context).toEqual({ id: 3, reason: REASON });
    expect(run.emitted).toEqual([{ type: 'notify', level: 'error', message: alreadyApproved.message }]);
    expect(run.heard('queue')).toEqual([]);
    run.actor.send({ type: 'reject.cancelled' });
    expect(run.actor.getSnapshot().context).toEqual({ id: null, reason: '' });
    await run.stop();
  });
});
