import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { DatePicker } from '../../../ui/date-picker';
import { FormFooter } from '../../../ui/form-footer';
import { TextField } from '../../../ui/text-field';
import { fieldGrid, stack } from '../listing-styles';
import type { AddRef, RequestRef } from './add-listing-parts';
import { RequestNotes } from './request-notes';

export function RequestForm({ add, form }: { add: AddRef; form: RequestRef }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const formError = useSelector(form, (s) => s.context.formError);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const showErrors = useSelector(form, (s) => !s.matches({ editing: 'pristine' }));
  const set = (field: keyof typeof values & string, value: string) =>
    form.send({ type: 'field.changed', field, value });
  const valid = values.match_name.trim().length >= 3 && values.match_date !== '' && values.stadium_name.trim() !== '';
  return (
    <form
      aria-label="Request an event"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        form.send({ type: 'form.submitted' });
      }}
      className={stack}
    >
      {formError ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {formError}
        </p>
      ) : null}
      <div className={fieldGrid}>
        <TextField
          label="Event name"
          required
          maxLength={150}
          value={values.match_name}
          onChange={(e) => set('match_name', e.currentTarget.value)}
          error={errors.match_name}
          showErrors={showErrors}
        />
        <DatePicker
          label="Event date"
          required
          onChange={(date) => set('match_date', date)}
          error={errors.match_date}
          showErrors={showErrors}
        />
        <TextField
          label="Venue"
          required
          maxLength={150}
          value={values.stadium_name}
          onChange={(e) => set('stadium_name', e.currentTarget.value)}
          error={errors.stadium_name}
          showErrors={showErrors}
        />
        <TextField
          label="City (optional)"
          maxLength={100}
          value={values.city_name ?? ''}
          onChange={(e) => set('city_name', e.currentTarget.value)}
          error={errors.city_name}
          showErrors={showErrors}
        />
        <TextField
          label="Home team (optional)"
          maxLength={100}
          value={values.home_team ?? ''}
          onChange={(e) => set('home_team', e.currentTarget.value)}
          error={errors.home_team}
          showErrors={showErrors}
        />
        <TextField
          label="Away team (optional)"
          maxLength={100}
          value={values.away_team ?? ''}
          onChange={(e) => set('away_team', e.currentTarget.value)}
          error={errors.away_team}
          showErrors={showErrors}
        />
        <TextField
          label="Competition (optional)"
          maxLength={100}
          value={values.tournament ?? ''}
          onChange={(e) => set('tournament', e.currentTarget.value)}
          error={errors.tournament}
          showErrors={showErrors}
        />
        <TextField
          label="Kick-off time (optional)"
          type="time"
          value={values.match_time ?? ''}
          // an emptied time is no time (the contract's pattern takes HH:MM only)
          onChange={(e) =>
            form.send({ type: 'field.changed', field: 'match_time', value: e.currentTarget.value || undefined })
          }
          error={errors.match_time}
          showErrors={showErrors}
        />
      </div>
      <RequestNotes
        value={values.notes ?? ''}
        onChange={(notes) => set('notes', notes)}
        error={showErrors ? (errors.notes ?? null) : null}
      />
      <FormFooter
        valid={valid && !submitting}
        submitting={submitting}
        submitLabel="Send request"
        onCancel={() => add.send({ type: 'request.closed' })}
      />
    </form>
  );
}
