import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type ReportSchedule,
  type ReportScheduleValues,
  type reportScheduleFormMachine,
  reportScheduleMachine,
  SCHEDULE_LOAD_ERROR,
} from '../../../machines/report-schedule.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { Dropdown } from '../../ui/dropdown';
import { Skeleton } from '../../ui/skeleton';

const FREQUENCIES: ReadonlyArray<{ value: ReportScheduleValues['frequency']; label: string }> = [
  { value: 'off', label: 'Off' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];
const CURRENCIES: ReadonlyArray<NonNullable<ReportScheduleValues['currency']>> = ['GBP', 'EUR', 'USD', 'AED'];

const muted = css({ fontSize: 'sm', color: 'fg.muted' });
const field = css({ width: { base: '100%', desktop: '12rem' } });
const errorText = css({ color: 'error', fontSize: 'sm' });
const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
  overflowWrap: 'anywhere',
});

/** Report history › Scheduled reports: a weekly or monthly email with the period's report attached as XLSX. */
export function ScheduledReports() {
  const page = useViewActor(reportScheduleMachine, 'report-schedule');
  const loading = useSelector(page, (s) => s?.hasTag('loading') ?? true);
  const failed = useSelector(page, (s) => s?.matches('failed') ?? false);
  const schedule = useSelector(page, (s) => s?.context.schedule ?? null);
  const form = useSelector(
    page,
    (s) => s?.children.reportScheduleForm as ActorRefFrom<typeof reportScheduleFormMachine> | undefined,
  );
  return (
    <section aria-labelledby="scheduled-reports-title" className={card}>
      <h2 id="scheduled-reports-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Scheduled reports
      </h2>
      <p className={muted}>
        Get the report by email: weekly (Monday to Sunday) or monthly, sent once the period is over (UTC), with the
        period's orders attached as an XLSX file, as Export XLSX makes it.
      </p>
      {failed && page ? (
        <div role="alert" className={css({ display: 'grid', gap: '3', justifyItems: 'start' })}>
          <p className={css({ color: 'error' })}>{SCHEDULE_LOAD_ERROR}</p>
          <Button tone="secondary" onClick={() => page.send({ type: 'retry' })}>
            Retry
          </Button>
        </div>
      ) : loading || !form || !schedule ? (
        <div role="status" aria-label="Loading your scheduled reports">
          <Skeleton height="36px" />
        </div>
      ) : (
        <ScheduleForm form={form} schedule={schedule} />
      )}
    </section>
  );
}

function ScheduleForm({
  form,
  schedule,
}: {
  form: ActorRefFrom<typeof reportScheduleFormMachine>;
  schedule: ReportSchedule;
}) {
  const values = useSelector(form, (s) => s.context.values) as ReportScheduleValues;
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const set = (name: keyof ReportScheduleValues, value: string) =>
    form.send({ type: 'field.changed', field: name, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '4' })} aria-busy={submitting}>
      {refusal ? (
        <div role="alert" className={errorText}>
          {refusal}
        </div>
      ) : null}
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'end' })}>
        <div className={field}>
          <Dropdown<ReportScheduleValues['frequency']>
            label="Email me the report"
            name="frequency"
            searchable={false}
            options={FREQUENCIES}
            value={values.frequency}
            error={errors.frequency ?? null}
            onChange={(v) => v && set('frequency', v)}
          />
        </div>
        <div className={field}>
          <Dropdown<NonNullable<ReportScheduleValues['currency']>>
            label="Currency"
            name="currency"
            searchable={false}
            options={CURRENCIES.map((c) => ({ label: c, value: c }))}
            value={values.currency ?? 'GBP'}
            disabled={values.frequency === 'off'}
            error={errors.currency ?? null}
            onChange={(v) => v && set('currency', v)}
          />
        </div>
        <Button type="submit" busy={submitting}>
          Save schedule
        </Button>
      </div>
      {schedule.frequency !== 'off' && schedule.next_period ? (
        <p className={muted}>
          Next: the report of {formatDate(schedule.next_period.date_from)} to {formatDate(schedule.next_period.date_to)}{' '}
          ({schedule.currency}), sent to {schedule.recipient} once it is over.
        </p>
      ) : (
        <p className={muted}>No report is emailed.</p>
      )}
      {schedule.updated_at ? <span className={muted}>Last saved {formatDate(schedule.updated_at)}</span> : null}
    </form>
  );
}
