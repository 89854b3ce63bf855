import { type FormEvent, useState } from 'react';
import { css } from 'styled-system/css';
import { Session } from '../../app/session';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { type LoginErrors, validateLogin } from './login-schema';

export function LoginPage() {
  const session = Session.useActorRef();
  const submitting = Session.useSelector((s) => s.hasTag('submitting') || s.matches('loadingProfile'));
  const serverError = Session.useSelector((s) => (s.matches({ loggedOut: 'failed' }) ? s.context.error : null));
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [showErrors, setShowErrors] = useState(false);

  const update = (field: 'email' | 'password', value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (showErrors) {
      const checked = validateLogin(next);
      setErrors(checked.ok ? {} : checked.errors);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateLogin(values);
    setShowErrors(true);
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = Object.keys(checked.errors)[0];
      if (first) document.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    session.send({ type: 'login.submitted', ...checked.values });
  };

  return (
    <main
      className={css({
        minHeight: '100dvh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: '4',
        bg: 'bg.subtle',
      })}
    >
      <div
        className={css({
          width: '100%',
          maxWidth: '400px',
          bg: 'bg',
          borderRadius: 'lg',
          boxShadow: '0 8px 30px rgba(17, 24, 39, 0.08)',
          p: { base: '5', desktop: '6' },
        })}
      >
        <p className={css({ fontWeight: 'bold', color: 'accent', fontSize: 'lg', mb: '1' })}>SB Portal</p>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '1' })}>Log in</h1>
        <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '5' })}>
          Sell, track and buy sports tickets in one place.
        </p>
        <form noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          {serverError ? (
            <div
              role="alert"
              className={css({
                bg: 'red.50',
                color: 'error',
                border: '1px solid {colors.red.200}',
                borderRadius: 'md',
                px: '3',
                py: '2',
                fontSize: 'sm',
              })}
            >
              {serverError}
            </div>
          ) : null}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            maxLength={254}
            value={values.email}
            error={showErrors ? errors.email : null}
            onChange={(e) => update('email', e.target.value)}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={128}
            value={values.password}
            error={showErrors ? errors.password : null}
            onChange={(e) => update('password', e.target.value)}
          />
          <Button type="submit" width="full" busy={submitting}>
            {submitting ? 'Logging in…' : 'Log in'}
          </Button>
        </form>
      </div>
    </main>
  );
}
