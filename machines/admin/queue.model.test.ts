import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../openapi/client';
import { modelPaths, replay, uncovered } from '../testing/model';
import { startWithStandIns } from '../testing/stand-ins';
import { adminQueueMachine } from './queue.machine';
import { type AdminEventRequest, eventRequestQueueMachine } from './queues';

const request: AdminEventRequest = {
  request_id: 5,
  match_name: 'Northbridge vs Southport',
  home_team: 'Northbridge',
  away_team: 'Southport',
  tournament: 'Coastal Cup',
  match_date: '2027-01-09',
  match_time: '19:45',
  stadium_name: 'Harbour Park',
  city_name: 'London',
  notes: null,
  status: 'pending',
  status_reason: null,
  match_id: null,
  created_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T09:00:00.000Z',
  seller_id: 3,
  seller_name: 'Sam Seller',
};
const REASON = 'Already in the catalogue';
const proof = { name: 'proof.pdf', mime: 'application/pdf', content_base64: 'JVBERi0=' };

const events = [
  { type: 'approve.started', item: request },
  { type: 'value.changed', name: 'match_time', value: '20:00' },
  { type: 'value.changed', name: 'match_time', value: '8pm' },
  { type: 'approve.confirmed' },
  { type: 'approve.cancelled' },
  { type: 'reject.started', item: request },
  { type: 'reason.changed', reason: `  ${REASON} ` },
  { type: 'reason.changed', reason: '   ' },
  { type: 'reject.confirmed' },
  { type: 'reject.cancelled' },
  { type: 'file.requested', item: request, kind: 'proof' },
  { type: 'xstate.done.actor.approve', output: { ...request, status: 'approved' } },
  { type: 'xstate.error.actor.approve', error: new ApiError(409, 'This event request was rejected') },
  { type: 'xstate.done.actor.reject', output: { ...request, status: 'rejected' } },
  { type: 'xstate.error.actor.reject', error: new ApiError(409, 'This event request was approved') },
  { type: 'xstate.done.actor.loadFile', output: proof },
  { type: 'xstate.done.actor.loadFile', output: null },
  { type: 'xstate.error.actor.loadFile', error: new Error('offline') },
];

/** What a path's state is, for the model: where it stands, what it holds. */
const identity = (s: AnyMachineSnapshot) => ({
  value: s.value,
  item: s.context.item !== null,
  values: s.context.values,
  reason: s.context.reason.trim() !== '',
  problem: s.context.problem,
});

const start = () =>
  startWithStandIns(eventRequestQueueMachine, {
    settled: ['approve', 'reject', 'loadFile'],
    listening: { children: ['queue'] },
  });

describe('the back office review queue statechart, model-based', () => {
  const paths = modelPaths(eventRequestQueueMachine, {
    events,
    identity,
    invariant:
      'an item is approved only after the confirmation, with the values given; a rejection carries its reason, trimmed; every decision, done or refused, reloads the queue',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(eventRequestQueueMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('is the chart the flows viewer draws', () => {
    expect(uncovered(adminQueueMachine, []).missingStates.sort()).toEqual(
      uncovered(eventRequestQueueMachine, [])
        .missingStates.map((s) => s.replace('adminEventRequests', 'adminQueue'))
        .sort(),
    );
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = start();
      let reloads = 0;
      await replay(
        path,
        run.actor,
        (event) => {
          if (/^xstate\.(done|error)\.actor\.(approve|reject)$/.test(event.type)) reloads++;
          return run.perform(event);
        },
        (real) => {
          const deciding = real.matches({ decision: 'approving' }) || real.matches({ decision: 'rejecting' });
          if (real.matches({ decision: 'idle' })) expect(real.context.item).toBeNull();
          else expect(real.context.item).toBe(request);
          if (real.matches({ decision: 'approving' }))
            expect(run.control.pending('approve')?.input).toEqual({ item: request, values: real.context.values });
          else expect(run.control.isPending('approve')).toBe(false);
          if (real.matches({ decision: 'rejecting' }))
            expect(run.control.pending('reject')?.input).toEqual({ item: request, reason: REASON });
          else expect(run.control.isPending('reject')).toBe(false);
          expect(real.hasTag('deciding')).toBe(deciding);
          expect(real.hasTag('loadingFile')).toBe(real.matches({ file: 'loading' }));
          expect(run.heard('queue').map((e) => e.type)).toEqual(Array(reloads).fill('list.refreshed'));
        },
      );
      await run.stop();
    });
  }

  it('keeps a refusal in the dialog that sent it, and says why values are refused', async () => {
    const run = start();
    run.actor.send({ type: 'approve.started', item: request });
    expect(run.actor.getSnapshot().context.values).toEqual({ match_time: '19:45' });
    run.actor.send({ type: 'value.changed', name: 'match_time', value: '8pm' });
    run.actor.send({ type: 'approve.confirmed' });
    expect(run.actor.getSnapshot().context.problem).toBe('Enter the kick-off time as HH:MM.');
    expect(run.actor.getSnapshot().matches({ decision: 'confirming' })).toBe(true);
    run.actor.send({ type: 'value.changed', name: 'match_time', value: '20:00' });
    run.actor.send({ type: 'approve.confirmed' });
    expect(run.control.pending('approve')?.input).toEqual({ item: request, values: { match_time: '20:00' } });
    await run.perform({ type: 'xstate.error.actor.approve', error: new ApiError(409, 'Rejected before') } as never);
    expect(run.actor.getSnapshot().context.problem).toBe('Rejected before');
    expect(run.actor.getSnapshot().matches({ decision: 'confirming' })).toBe(true);
    await run.stop();
  });

  it('toasts the decision and hands a loaded file to the view', async () => {
    const run = start();
    run.actor.send({ type: 'approve.started', item: request });
    run.actor.send({ type: 'approve.confirmed' });
    await run.perform({ type: 'xstate.done.actor.approve', output: { ...request, status: 'approved' } } as never);
    run.actor.send({ type: 'file.requested', item: request, kind: 'proof' });
    await run.perform({ type: 'xstate.done.actor.loadFile', output: proof } as never);
    expect(run.emitted).toEqual([
      { type: 'notify', level: 'success', message: 'Northbridge vs Southport approved: it is in the catalogue' },
      { type: 'file.ready', file: proof },
    ]);
    await run.stop();
  });
});
