import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import { type AdminKycDocument, type AdminKycSubmission, adminKycMachine } from './admin-kyc.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const submission: AdminKycSubmission = {
  id: 7,
  seller_id: 9,
  seller_name: 'Kit Kyc',
  seller_email: 'kyc@demo.test',
  account_type: 'individual',
  status: 'submitted',
  submitted_at: '2026-11-22T10:00:00.000Z',
  decided_at: null,
  rejection_reason: null,
  documents: [
    { kind: 'photo_id', name: 'passport.png', mime: 'image/png', size: 68, uploaded_at: '2026-11-22T09:00:00.000Z' },
  ],
};
const photo: AdminKycDocument = {
  kind: 'photo_id',
  name: 'passport.png',
  mime: 'image/png',
  size: 68,
  uploaded_at: '2026-11-22T09:00:00.000Z',
  content_base64: 'iVBORw0KGgo=',
};
const REASON = 'The photo is blurred.';

const events = [
  { type: 'kyc.approved', id: 7 },
  { type: 'reject.started', id: 7 },
  { type: 'reason.changed', reason: REASON },
  { type: 'reason.changed', reason: '   ' },
  { type: 'reject.confirmed' },
  { type: 'reject.cancelled' },
  { type: 'document.requested', id: 7, kind: 'photo_id' },
  { type: 'xstate.done.actor.approve', output: { ...submission, status: 'approved' } },
  { type: 'xstate.error.actor.approve', error: new ApiError(409, 'This KYC submission was already rejected') },
  { type: 'xstate.done.actor.reject', output: { ...submission, status: 'rejected', rejection_reason: REASON } },
  { type: 'xstate.error.actor.reject', error: new ApiError(409, 'This KYC submission was already approved') },
  { type: 'xstate.done.actor.loadDocument', output: photo },
  { type: 'xstate.done.actor.loadDocument', output: null },
  { type: 'xstate.error.actor.loadDocument', error: new Error('offline') },
];

/** Every message the machine may show: the decisions, the server's refusals, the document's two failures. */
const MESSAGES = [
  'KYC of Kit Kyc approved',
  'KYC of Kit Kyc rejected',
  'This KYC submission was already rejected',
  'This KYC submission was already approved',
  'Not part of this submission.',
  'Failed to load the document',
];

function start() {
  const control = controllableActors(['approve', 'reject', 'loadDocument'] as const);
  const refreshed: number[] = [];
  const queue = createMachine({ on: { 'list.refreshed': { actions: () => refreshed.push(1) } } });
  const actor = createActor(adminKycMachine.provide({ actors: { ...control.actors, queue: queue as never } }));
  const emitted: Array<{ type: string; message?: string; document?: unknown }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted, refreshed };
}

describe('back-office KYC statechart, model-based', () => {
  const paths = modelPaths(adminKycMachine, {
    events,
    invariant:
      'the submission decided is the one picked, a rejection is sent only with its trimmed reason, an approval or a settled rejection (or a refused approval) reloads the queue, and a document opens only when the server sent it',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminKycMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted, refreshed } = start();
      let reloads = 0;
      let documents = 0;
      await replay(
        path,
        actor,
        async (event) => {
          // what reloads the queue: every settled approval, and a rejection the server accepted
          if (/^xstate\.(done|error)\.actor\.approve$/.test(event.type) || event.type === 'xstate.done.actor.reject')
            reloads++;
          if (event.type === 'xstate.done.actor.loadDocument' && (event as { output?: unknown }).output) documents++;
          return control.settle(event);
        },
        (real) => {
          const decision = (real.value as { decision: string }).decision;
          if (decision === 'idle') expect(real.context).toMatchObject({ id: null, reason: '' });
          else expect(real.context.id).toBe(7);
          if (decision === 'approving') expect(control.pending('approve')?.input).toEqual({ id: 7 });
          else expect(control.isPending('approve')).toBe(false);
          if (decision === 'rejecting') expect(control.pending('reject')?.input).toEqual({ id: 7, reason: REASON });
          else expect(control.isPending('reject')).toBe(false);
          if (real.matches({ document: 'loading' }))
            expect(control.pending('loadDocument')?.input).toEqual({ id: 7, kind: 'photo_id' });
          expect(real.hasTag('deciding')).toBe(decision === 'approving' || decision === 'rejecting');
          expect(refreshed.length).toBe(reloads);
          expect(emitted.filter((e) => e.type === 'document.ready').map((e) => e.document)).toEqual(
            Array(documents).fill(photo),
          );
          for (const e of emitted.filter((x) => x.type === 'notify')) expect(MESSAGES).toContain(e.message);
        },
      );
      actor.stop();
      await flush();
    });
  }
});

describe('back-office KYC statechart, examples', () => {
  it('a rejection the server refuses keeps the dialog and the reason, so the admin can try again', async () => {
    const { actor, control, emitted, refreshed } = start();
    actor.send({ type: 'reject.started', id: 7 });
    actor.send({ type: 'reason.changed', reason: `  ${REASON}  ` });
    actor.send({ type: 'reject.confirmed' });
    expect(control.pending('reject')?.input).toEqual({ id: 7, reason: REASON });
    await control.settle({ type: 'xstate.error.actor.reject', error: new ApiError(422, 'Reason is too long') });
    expect(actor.getSnapshot().matches({ decision: 'writingReason' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ id: 7, reason: `  ${REASON}  ` });
    expect(emitted.at(-1)).toMatchObject({ type: 'notify', message: 'Reason is too long' });
    expect(refreshed).toEqual([]);
    actor.stop();
  });

  it('a blank reason cannot reject', () => {
    const { actor, control } = start();
    actor.send({ type: 'reject.started', id: 7 });
    actor.send({ type: 'reason.changed', reason: ' \n ' });
    expect(actor.getSnapshot().can({ type: 'reject.confirmed' })).toBe(false);
    actor.send({ type: 'reject.confirmed' });
    expect(actor.getSnapshot().matches({ decision: 'writingReason' })).toBe(true);
    expect(control.isPending('reject')).toBe(false);
    actor.stop();
  });
});
