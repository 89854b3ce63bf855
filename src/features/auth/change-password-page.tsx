import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect } from 'react';
import { css } from 'styled-system/css';
import { changeLimits, changePasswordFormMachine, EMPTY_CHANGE } from '../../../machines/account-forms';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';

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
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const done = useSelector(form, (s) => (s.status === 'done' ? s.output : null));
  useEffect(() => {
    const sub = form.on('form.invalid', ({ field }) => {
      document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(field)}"]`)?.focus();
    });
    return () => sub.unsubscribe();
  }, [form]);
  const change = (field: keyof typeof EMPTY_CHANGE) => (e: { target: { value: string } }) =>
    form.send({ type: 'field.changed', field, value: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
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
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={changeLimits.password?.minLength}
        maxLength={changeLimits.password?.maxLength}
        value={values.password}
        error={errors.password}
        onChange={change('password')}
      />
      <TextField
        label="Confirm new password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        maxLength={changeLimits.password_confirmation?.maxLength}
        value={values.password_confirmation}
        error={errors.password_confirmation}
        onChange={change('password_confirmation')}
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
