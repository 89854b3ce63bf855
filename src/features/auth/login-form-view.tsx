import type { FormEvent, ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import { loginLimits } from '../../../machines/login-form.machine';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';

/** The page's card, shared by the password and the code steps. */
export function LoginCard({ children }: { children: ReactNode }) {
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
        {children}
      </div>
    </main>
  );
}

export const alertClass = css({
  bg: 'red.50',
  color: 'error',
  border: '1px solid {colors.red.200}',
  borderRadius: 'md',
  px: '3',
  py: '2',
  fontSize: 'sm',
});

export interface LoginFormViewProps {
  values: { email: string; password: string };
  errors: Partial<Record<'email' | 'password', string>>;
  submitting: boolean;
  /** the server's refusal, or the session's notice (a session that ended) */
  message: string | null;
  onField?: (field: 'email' | 'password', value: string) => void;
  onSubmit?: () => void;
  /**
   * The HTML of /login, prerendered at build (scripts/prerender-pages.tsx): Log in is disabled until the app
   * takes over, so that neither the button nor Enter can send the form as a GET with the password in the URL.
   */
  prerendered?: boolean;
}

/** The login form as it shows: the app renders it with the form machine's state, the build with an empty one. */
export function LoginFormView({
  values,
  errors,
  submitting,
  message,
  onField,
  onSubmit,
  prerendered = false,
}: LoginFormViewProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };
  return (
    <LoginCard>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '1' })}>Log in</h1>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '5' })}>
        Sell, track and buy sports tickets in one place.
      </p>
      <form noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        {message ? (
          <div role="alert" className={alertClass}>
            {message}
          </div>
        ) : null}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          maxLength={loginLimits.email?.maxLength}
          value={values.email}
          error={errors.email}
          onChange={(e) => onField?.('email', e.target.value)}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={loginLimits.password?.maxLength}
          value={values.password}
          error={errors.password}
          onChange={(e) => onField?.('password', e.target.value)}
        />
        <Button type="submit" width="full" busy={submitting} disabled={prerendered}>
          {submitting ? 'Logging in…' : 'Log in'}
        </Button>
      </form>
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
        <Link href={routes.forgotPassword.href({})} className={css({ color: 'accent', textDecoration: 'underline' })}>
          Forgot password?
        </Link>
        <Link href={routes.signup.href({})} className={css({ color: 'accent', textDecoration: 'underline' })}>
          Create an account
        </Link>
      </p>
      <p className={css({ mt: '4', fontSize: 'xs', textAlign: 'center' })}>
        <Link href={routes.accessibility.href({})} className={css({ color: 'fg.muted', textDecoration: 'underline' })}>
          Accessibility statement
        </Link>
      </p>
    </LoginCard>
  );
}
