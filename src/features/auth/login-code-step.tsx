import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { type codeFormMachine, codeLimits, type loginFormMachine } from '../../../machines/login-form.machine';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { alertClass, LoginCard } from './login-form-view';

type LoginFlow = ActorRefFrom<typeof loginFormMachine>;
type CodeForm = ActorRefFrom<typeof codeFormMachine>;

const linkButton = css({
  color: 'accent',
  textDecoration: 'underline',
  cursor: 'pointer',
  bg: 'transparent',
  border: 'none',
  p: '0',
  fontSize: 'sm',
});

/**
 * The code step of two-factor login (a chunk of its own, loaded only when it is due): the 6-digit code from the
 * authenticator app, or on 'Use a recovery code' one of the recovery codes; 'Back' returns to the password.
 */
export default function CodeStep({ flow }: { flow: LoginFlow }) {
  const recovery = useSelector(flow, (s) => s.matches({ code: 'recovery' }));
  const form = useSelector(flow, (s) => s.children.codeForm ?? s.children.recoveryForm) as CodeForm | undefined;
  return (
    <LoginCard>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '1' })}>Two-factor authentication</h1>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '5' })}>
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned two-factor authentication on. Each works once.'
          : 'Enter the 6-digit code your authenticator app shows for SB Portal.'}
      </p>
      {form ? <CodeForm key={recovery ? 'recovery' : 'app'} form={form} recovery={recovery} /> : null}
      <p
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          gap: '2',
          mt: '4',
          fontSize: 'sm',
        })}
      >
        <button type="button" className={linkButton} onClick={() => flow.send({ type: 'code.cancelled' })}>
          Back
        </button>
        {recovery ? (
          <button type="button" className={linkButton} onClick={() => flow.send({ type: 'code.app.chosen' })}>
            Use the code from the app
          </button>
        ) : (
          <button type="button" className={linkButton} onClick={() => flow.send({ type: 'code.recovery.chosen' })}>
            Use a recovery code
          </button>
        )}
      </p>
    </LoginCard>
  );
}

function CodeForm({ form, recovery }: { form: CodeForm; recovery: boolean }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting') || s.status === 'done');
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const field = recovery ? 'recovery_code' : 'code';

  useEffect(() => {
    document.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.focus();
  }, [field]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };

  return (
    <form noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      {refusal ? (
        <div role="alert" className={alertClass}>
          {refusal}
        </div>
      ) : null}
      {recovery ? (
        <TextField
          label="Recovery code"
          name="recovery_code"
          autoComplete="off"
          required
          maxLength={codeLimits.recovery_code?.maxLength}
          value={values.recovery_code ?? ''}
          error={errors.recovery_code}
          onChange={(e) => form.send({ type: 'field.changed', field: 'recovery_code', value: e.target.value })}
        />
      ) : (
        <TextField
          label="Code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          maxLength={6}
          value={values.code ?? ''}
          error={errors.code}
          onChange={(e) => form.send({ type: 'field.changed', field: 'code', value: e.target.value.trim() })}
        />
      )}
      <Button type="submit" width="full" busy={submitting}>
        {submitting ? 'Checking…' : 'Verify'}
      </Button>
    </form>
  );
}
