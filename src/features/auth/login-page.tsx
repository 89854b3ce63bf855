import { useSelector } from '@xstate/react';
import { type FormEvent, lazy, Suspense, useEffect } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { type loginFormMachine, loginLimits, type passwordFormMachine } from '../../../machines/login-form.machine';
import { useSessionChild } from '../../app/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { documentTitle, routes, routeTitle } from '../../routes';
import { Button } from '../../ui/button';
import { FullPageLoader } from '../../ui/full-page-loader';
import { TextField } from '../../ui/text-field';

type LoginFlow = ActorRefFrom<typeof loginFormMachine>;
type PasswordForm = ActorRefFrom<typeof passwordFormMachine>;

// the code step of two-factor login loads only when a user who turned it on gets there: /login stays small
const CodeStep = lazy(() => import('./login-code-step'));

/**
 * /login. The login is the session's `loginForm` actor: the email and password (the form machine with the
 * contract's LoginRequest constraints), then, for a user who turned two-factor login on, the code step. Once
 * the server accepts it, the session loads the profile behind a loader.
 */
export function LoginPage() {
  useDocumentTitle(documentTitle(routeTitle(routes.login, {})));
  const flow = useSessionChild<typeof loginFormMachine>('loginForm');
  return flow ? <LoginSteps flow={flow} /> : <FullPageLoader label="Logging in…" />;
}

function LoginSteps({ flow }: { flow: LoginFlow }) {
  const atCode = useSelector(flow, (s) => s.matches('code'));
  const notice = useSelector(flow, (s) => s.context.notice);
  const form = useSelector(flow, (s) => s.children.passwordForm) as PasswordForm | undefined;
  if (atCode) {
    return (
      <Suspense fallback={<FullPageLoader label="Loading…" />}>
        <CodeStep flow={flow} />
      </Suspense>
    );
  }
  return form ? <LoginForm form={form} notice={notice} /> : <FullPageLoader label="Logging in…" />;
}

/** The page's card, shared by the password and the code steps. */
export function LoginCard({ children }: { children: React.ReactNode }) {
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

function LoginForm({ form, notice }: { form: PasswordForm; notice: string | null }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const submitting = useSelector(form, (s) => s.hasTag('submitting') || s.status === 'done');
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));

  // a check that fails puts the focus on the first field it names
  useEffect(() => {
    const sub = form.on('form.invalid', ({ field }) => {
      document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(field)}"]`)?.focus();
    });
    return () => sub.unsubscribe();
  }, [form]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };

  return (
    <LoginCard>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '1' })}>Log in</h1>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '5' })}>
        Sell, track and buy sports tickets in one place.
      </p>
      <form noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        {(refusal ?? notice) ? (
          <div role="alert" className={alertClass}>
            {refusal ?? notice}
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
          onChange={(e) => form.send({ type: 'field.changed', field: 'email', value: e.target.value })}
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
          onChange={(e) => form.send({ type: 'field.changed', field: 'password', value: e.target.value })}
        />
        <Button type="submit" width="full" busy={submitting}>
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
    </LoginCard>
  );
}
