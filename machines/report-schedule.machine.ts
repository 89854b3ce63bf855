import { assign, emit, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { updateReportScheduleBody } from '../openapi/valibot';
import { createFormMachine } from './form.machine';
import { type NotifyEvent, notifyError } from './notify';

export type ReportSchedule = DataOf<'/reports/schedule', 'get'>;
export type ReportScheduleValues = components['schemas']['ReportScheduleInput'];

/** The spec's default toast for a failed read (section 8). */
export const SCHEDULE_LOAD_ERROR = 'Failed to fetch data';
/** The server's messages (server/domain/report-schedules.ts), toasted after a save. */
export const SCHEDULE_SAVED = 'Scheduled reports saved.';
export const SCHEDULE_OFF = 'Scheduled reports turned off.';

const fields = updateReportScheduleBody(
  formMessages({
    frequency: { enum: 'Choose Off, Weekly or Monthly.' },
    currency: { enum: 'Choose one of the currencies listed.' },
  }),
);

/** The form of Scheduled reports: the contract's ReportScheduleInput (frequency off, weekly or monthly; currency). */
export const reportScheduleFormMachine = createFormMachine({
  id: 'reportScheduleForm',
  schema: fields,
  submit: async (body, signal): Promise<ReportSchedule> => unwrap(await api.PUT('/reports/schedule', { body, signal })),
});

export const valuesOf = (s: ReportSchedule): ReportScheduleValues => ({
  frequency: s.frequency,
  currency: s.currency,
});

export interface ReportScheduleContext {
  schedule: ReportSchedule | null;
}

export type ReportScheduleEvent =
  | { type: 'retry' }
  | { type: 'xstate.done.actor.reportScheduleForm'; output: ReportSchedule };

/**
 * Report history › Scheduled reports (issue 14, item 4): loads the seller's schedule ('Failed to fetch data' with
 * Retry), then edits it on the shared form machine; a save toasts 'Scheduled reports saved.' (or 'Scheduled
 * reports turned off.' for Off) and starts the form again from what the server stored.
 */
export const reportScheduleMachine = setup({
  types: {
    context: {} as ReportScheduleContext,
    events: {} as ReportScheduleEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    reportScheduleForm: reportScheduleFormMachine,
    loadSchedule: fromPromise<ReportSchedule>(async ({ signal }) =>
      unwrap(await api.GET('/reports/schedule', { signal }), SCHEDULE_LOAD_ERROR),
    ),
  },
  actions: {
    store: assign((_, schedule: ReportSchedule) => ({ schedule })),
    notifySaved: emit(({ context }) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: context.schedule?.frequency === 'off' ? SCHEDULE_OFF : SCHEDULE_SAVED,
    })),
    notifyLoadError: emit(notifyError(SCHEDULE_LOAD_ERROR)),
  },
}).createMachine({
  id: 'reportSchedule',
  context: { schedule: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSchedule',
        src: 'loadSchedule',
        onDone: { target: 'editing', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'notifyLoadError' },
      },
    },
    failed: {
      description: "'Failed to fetch data' with Retry.",
      tags: ['error'],
      on: { retry: 'loading' },
    },
    editing: {
      description: 'The form, from the schedule as stored.',
      invoke: {
        id: 'reportScheduleForm',
        systemId: 'reportScheduleForm',
        src: 'reportScheduleForm',
        input: ({ context }) => ({ values: valuesOf(context.schedule as ReportSchedule) }),
        onDone: {
          target: 'editing',
          reenter: true,
          actions: [{ type: 'store', params: ({ event }) => event.output }, 'notifySaved'],
        },
      },
    },
  },
});
