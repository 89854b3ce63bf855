import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { changeLimits, changePasswordFormMachine, EMPTY_CHANGE } from '../../../machines/account-forms';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { NewPasswordFields, useAccountForm } from './account-form-parts';

/** Settings › Change password: the shared form machine; every other session of the user ends when it succeeds. */
export default function ChangePasswordPage() {
  const form = useViewActor(changePasswordFormMachine, 'change-password', { values: EMPTY_CHANGE });
  return form ? <ChangePasswordForm form={form} /> : null;
}

function ChangePasswordForm({
  form,
}: {
  form: NonNullable<ReturnType<typeof useViewActor<typeof changePasswordFormMachine>>>;
}) {
  const { values, errors, submitting, refusal, change, submit } = useAccountForm(form);
  const done = useSelector(form, (s) => (s.status === 'done' ? s.output : null));
  const box = css({ maxWidth: '28rem', display: 'flex', flexDirection: 'column', gap: '4' });
  if (done)
    return (
      <div role="status" className={box}>
        <p>
          Your password is changed.
          {done.sessions_ended > 0
            ? ` ${done.sessions_ended === 1 ? 'One other session was' : `${done.sessions_ended} other sessions were`} logged out.`
            : ''}
        </p>
        <Button tone="secondary" onClick={() => form.send({ type: 'form.reset' })}>
          Done
        </Button>
      </div>
    );
  return (
    <form noValidate onSubmit={submit} className={box}>
      {refusal ? (
        <div role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {refusal}
        </div>
      ) : null}
      <TextField
        label="Current password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={changeLimits.current_password?.maxLength}
        value={values.current_password}
        error={errors.current_password}
        onChange={change('current_password')}
      />
      <NewPasswordFields
        labels={['New password', 'Confirm new password']}
        limits={changeLimits}
        values={values}
        errors={errors}
        change={change}
      />
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        At least 8 characters. Every other session of your account is logged out; this one stays.
      </p>
      <Button type="submit" busy={submitting}>
        {submitting ? 'Saving…' : 'Change password'}
      </Button>
    </form>
  );
}
