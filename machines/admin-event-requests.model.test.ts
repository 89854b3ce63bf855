import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type AdminEventRequest,
  adminEventRequestsMachine,
  approvalRefusal,
  approveSchema,
  approveValuesOf,
} from './admin-event-requests.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const request: AdminEventRequest = {
  request_id: 12,
  match_name: 'Celtic vs Rangers',
  home_team: 'Celtic',
  away_team: 'Rangers',
  tournament: 'Scottish Premiership',
  match_date: '2027-01-02',
  match_time: null,
  stadium_name: 'Celtic Park',
  city_name: 'Glasgow',
  notes: null,
  status: 'pending',
  status_reason: null,
  match_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  seller_id: 2,
  seller_name: 'Sam Seller',
};

const events = [
  { type: 'approve.started', request },
  { type: 'approve.cancelled' },
  { type: 'reject.started', request },
  { type: 'reason.changed', reason: 'No such fixture.' },
  { type: 'reason.changed', reason: '   ' },
  { type: 'reject.confirmed' },
  { type: 'reject.cancelled' },
  { type: 'xstate.done.actor.approveForm', output: { ...request, status: 'approved', match_id: 99 } },
  { type: 'xstate.done.actor.reject', output: { ...request, status: 'rejected', status_reason: 'No such fixture.' } },
  {
    type: 'xstate.error.actor.reject',
    error: new ApiError(409, 'This event request was approved; it cannot be rejected.'),
  },
];

function start() {
  const control = controllableActors(['approveForm', 'reject'] as const);
  const refreshed: number[] = [];
  const queue = createMachine({ on: { 'list.refreshed': { actions: () => refreshed.push(1) } } });
  const actor = createActor(
    adminEventRequestsMachine.provide({ actors: { ...control.actors, queue: queue as never } }),
  );
  const emitted: Array<{ type: string; message?: string }> = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, control, emitted, refreshed };
}

describe('admin event requests statechart, model-based', () => {
  const paths = modelPaths(adminEventRequestsMachine, {
    events,
    invariant: 'the request being decided is the one picked; a decision reloads the queue and is announced',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminEventRequestsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, control, emitted, refreshed } = start();
      let decisions = 0;
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type.startsWith('xstate.done.actor.')) decisions++;
          return control.settle(event);
        },
        (real) => {
          const value = real.value as string;
          if (value === 'idle') expect(real.context.request).toBeNull();
          else expect(real.context.request).toEqual(request);
          if (value === 'approving')
            expect(control.pending('approveForm')?.input).toEqual({ values: approveValuesOf(request) });
          if (value === 'rejecting')
            expect(control.pending('reject')?.input).toEqual({ id: 12, reason: 'No such fixture.' });
          expect(refreshed.length).toBe(decisions);
          for (const e of emitted.filter((x) => x.type === 'notify'))
            expect([
              'Celtic vs Rangers approved: it is in the catalogue',
              'Celtic vs Rangers rejected',
              'This event request was approved; it cannot be rejected.',
            ]).toContain(e.message);
        },
      );
      actor.stop();
      await flush();
    });
  }
});

describe('approve form values', () => {
  it('takes the request’s kick-off time, or one the back office types as HH:MM', () => {
    expect(approveValuesOf({ ...request, match_time: '12:30' })).toEqual({ request_id: 12, match_time: '12:30' });
    expect(v.safeParse(approveSchema, { request_id: 12, match_time: '19:45' }).success).toBe(true);
    const bad = v.safeParse(approveSchema, { request_id: 12, match_time: '7pm' });
    expect(bad.issues?.[0]?.message).toBe('Enter the kick-off time as HH:MM.');
  });
});

describe('an approval the server refuses', () => {
  it('says what the dialog has no field for above the form, and keeps a kick-off time error under its field', () => {
    const city = approvalRefusal(
      new ApiError(422, 'Validation failed', [
        { path: '/body/city_id', message: "is required: the request's city 'Atlantis' is not in the catalogue" },
      ]),
    ) as ApiError;
    expect(city.message).toBe("City is required: the request's city 'Atlantis' is not in the catalogue.");
    expect(city.errors).toEqual([]);
    const time = new ApiError(422, 'Validation failed', [{ path: '/body/match_time', message: 'is required' }]);
    expect(approvalRefusal(time)).toBe(time);
    const gone = new ApiError(409, 'This event request was rejected; it cannot be approved.');
    expect(approvalRefusal(gone)).toBe(gone);
  });
});
