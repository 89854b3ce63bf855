import { useSelector } from '@xstate/react';
import type { FormEvent, ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { acceptInviteFormMachine, acceptLimits } from '../../../machines/my-teams.machine';
import { useViewActor } from '../../app/view-actor';
import { useDocumentTitle } from '../../lib/use-document-title';
import { documentTitle, routes, routeTitle } from '../../routes';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';

const stack = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const linkStyle = css({ color: 'accent', textDecoration: 'underline', fontSize: 'sm' });

function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'ok' }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={css({
        borderRadius: 'md',
        px: '3',
        py: '2',
        fontSize: 'sm',
        ...(tone === 'error'
          ? { bg: 'red.50', color: 'error', border: '1px solid {colors.red.200}' }
          : { bg: 'green.50', color: 'green.800', border: '1px solid {colors.green.200}' }),
      })}
    >
      {children}
    </div>
  );
}

/** /signup/invite/{token}: an invited team member chooses its password (public: no session yet). */
export default function InvitePage({ token }: { token: string }) {
  const title = routeTitle(routes.invite, { token });
  useDocumentTitle(documentTitle(title));
  const form = useViewActor(acceptInviteFormMachine, `invite-${token}`, {
    values: { token, password: '', password_confirmation: '' },
  });
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
          maxWidth: '440px',
          bg: 'bg',
          borderRadius: 'lg',
          boxShadow: '0 8px 30px rgba(17, 24, 39, 0.08)',
          p: { base: '5', desktop: '6' },
          overflowWrap: 'anywhere',
        })}
      >
        <p className={css({ fontWeight: 'bold', color: 'accent', fontSize: 'lg', mb: '1' })}>SB Portal</p>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '4' })}>{title}</h1>
        {form ? <AcceptForm form={form} /> : null}
      </div>
    </main>
  );
}

function AcceptForm({ form }: { form: ActorRefFrom<typeof acceptInviteFormMachine> }) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors) as Record<string, string | undefined>;
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? s.context.formError : null));
  const change = (field: 'password' | 'password_confirmation') => (e: { target: { value: string } }) =>
    form.send({ type: 'field.changed', field, value: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  const done = useSelector(form, (s) => s.status === 'done');
  const login = routes.login.href({});
  if (done)
    return (
      <div className={stack}>
        <Alert tone="ok">Your password is set. Log in with your email address and this password.</Alert>
        <Link href={login} className={linkStyle}>
          Log in
        </Link>
      </div>
    );
  return (
    <form noValidate onSubmit={submit} className={stack}>
      <p className={css({ fontSize: 'sm' })}>You were invited to a team on SB Portal. Choose your password.</p>
      {refusal ? <Alert>{refusal}</Alert> : null}
      {errors.token ? <Alert>{errors.token}</Alert> : null}
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={acceptLimits.password?.minLength}
        maxLength={acceptLimits.password?.maxLength}
        value={values.password}
        error={errors.password}
        onChange={change('password')}
      />
      <TextField
        label="Confirm password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        maxLength={acceptLimits.password_confirmation?.maxLength}
        value={values.password_confirmation}
        error={errors.password_confirmation}
        onChange={change('password_confirmation')}
      />
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>At least 8 characters.</p>
      <Button type="submit" width="full" busy={submitting}>
        {submitting ? 'Saving…' : 'Set password'}
      </Button>
    </form>
  );
}
