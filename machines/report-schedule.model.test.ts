import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type ReportSchedule,
  reportScheduleMachine,
  SCHEDULE_LOAD_ERROR,
  SCHEDULE_OFF,
  SCHEDULE_SAVED,
  valuesOf,
} from './report-schedule.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const stored: ReportSchedule = {
  frequency: 'off',
  currency: 'GBP',
  recipient: null,
  next_period: null,
  updated_at: null,
};
const weekly: ReportSchedule = {
  frequency: 'weekly',
  currency: 'EUR',
  recipient: 'seller@demo.test',
  next_period: { date_from: '2026-11-23', date_to: '2026-11-29' },
  updated_at: '2026-11-23T06:00:00.000Z',
};
const off: ReportSchedule = { ...stored, updated_at: null, currency: 'USD' };

const events = [
  { type: 'retry' },
  { type: 'xstate.done.actor.loadSchedule', output: stored },
  { type: 'xstate.error.actor.loadSchedule', error: new ApiError(500, SCHEDULE_LOAD_ERROR) },
  { type: 'xstate.done.actor.reportScheduleForm', output: weekly },
  { type: 'xstate.done.actor.reportScheduleForm', output: off },
];

describe('report history › scheduled reports statechart, model-based', () => {
  const paths = modelPaths(reportScheduleMachine, {
    events,
    identity: ({ value, context }) => [value, context.schedule?.frequency ?? null, context.schedule?.currency ?? null],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(reportScheduleMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('the form starts from the schedule as stored', () => {
    expect(valuesOf(weekly)).toEqual({ frequency: 'weekly', currency: 'EUR' });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['loadSchedule', 'reportScheduleForm'] as const);
      const toasts: string[] = [];
      const actor = createActor(reportScheduleMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // the form opens with what the server stored last
          if (real.matches('editing')) {
            expect(control.pending('reportScheduleForm')?.input).toEqual({
              values: valuesOf(real.context.schedule as ReportSchedule),
            });
          }
          if (real.matches('failed')) expect(toasts).toContain(SCHEDULE_LOAD_ERROR);
          // a save toasts what it did: saved for weekly or monthly, turned off for Off
          if (real.context.schedule?.frequency === 'weekly') expect(toasts.at(-1)).toBe(SCHEDULE_SAVED);
          if (real.context.schedule?.currency === 'USD') expect(toasts.at(-1)).toBe(SCHEDULE_OFF);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
