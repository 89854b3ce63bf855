import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect } from 'react';
import { css } from 'styled-system/css';
import { Link, useSearch } from 'wouter';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import {
  emailLimits,
  forgotPasswordFormMachine,
  type resendFormMachine,
  resetLimits,
  resetPasswordFormMachine,
  type signupFormMachine,
  signupLimits,
} from '../../../machines/account-forms';
import { acceptInviteFormMachine, acceptLimits } from '../../../machines/my-teams.machine';
import { REFERRAL_CODE, signupMachine } from '../../../machines/signup.machine';
import { unlockAccountMachine } from '../../../machines/unlock-account.machine';
import { verifyEmailMachine } from '../../../machines/verify-email.machine';
import { useViewActor } from '../../app/view-actor';
import { useDocumentTitle } from '../../lib/use-document-title';
import { documentTitle, href, routes, routeTitle } from '../../routes';
import { Button } from '../../ui/button';
import { FullPageLoader } from '../../ui/full-page-loader';
import { TextField } from '../../ui/text-field';
import { NewPasswordFields, useAccountForm } from './account-form-parts';
import { alertClass, LoginCard } from './login-form-view';

// The public account pages (spec section 2): sign-up, the verification link, the reset request and the reset
// link; and the unlock link a locked account's owner is emailed. Each page runs its statechart (machines/signup, verify-email, account-forms) as a view of the session.

/** The login page's card, with the page's one h1 (a long email in a message breaks anywhere). */
function Card({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(documentTitle(title));
  return (
    <LoginCard>
      <div className={css({ overflowWrap: 'anywhere' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '4' })}>{title}</h1>
        {children}
      </div>
    </LoginCard>
  );
}

const okClass = css({
  bg: 'green.50',
  color: 'green.800',
  border: '1px solid {colors.green.200}',
  borderRadius: 'md',
  px: '3',
  py: '2',
  fontSize: 'sm',
});
const stack = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const linkStyle = css({ color: 'accent', textDecoration: 'underline', fontSize: 'sm' });
const note = css({ color: 'fg.muted', fontSize: 'sm' });

function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'ok' }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={tone === 'error' ? alertClass : okClass}>
      {children}
    </div>
  );
}

const LOGIN = routes.login.href({});
const FORGOT = routes.forgotPassword.href({});

/** /signup */
export function SignupPage() {
  const page = useViewActor(signupMachine, 'signup');
  const title = routeTitle(routes.signup, {});
  if (!page) return <FullPageLoader />;
  return (
    <Card title={title}>
      <Signup page={page} />
    </Card>
  );
}

function Signup({ page }: { page: ActorRefFrom<typeof signupMachine> }) {
  const sent = useSelector(page, (s) => s.matches('sent'));
  const form = useSelector(page, (s) => s.children.signupForm as ActorRefFrom<typeof signupFormMachine> | undefined);
  if (sent || !form) return <SignupSent page={page} />;
  return <SignupForm page={page} form={form} />;
}

function SignupForm({
  page,
  form,
}: {
  page: ActorRefFrom<typeof signupMachine>;
  form: ActorRefFrom<typeof signupFormMachine>;
}) {
  const { values, errors, submitting, refusal, change, submit } = useAccountForm(form);
  // a referral link (/signup?ref=CODE) sends its code with the sign-up; a malformed one is left out
  const ref = (new URLSearchParams(useSearch()).get('ref') ?? '').trim().toUpperCase();
  const referralCode = REFERRAL_CODE.test(ref) ? ref : null;
  useEffect(() => {
    if (referralCode) form.send({ type: 'field.changed', field: 'referral_code', value: referralCode });
  }, [form, referralCode]);
  const check = useSelector(page, (s) =>
    s.matches({ filling: 'checking' })
      ? 'checking'
      : s.matches({ filling: 'free' })
        ? 'free'
        : s.matches({ filling: 'taken' })
          ? 'taken'
          : null,
  );
  return (
    <form noValidate onSubmit={submit} className={stack} aria-busy={submitting}>
      {refusal ? <Alert>{refusal}</Alert> : null}
      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
        <TextField
          label="First name"
          name="first_name"
          autoComplete="given-name"
          required
          maxLength={signupLimits.first_name?.maxLength}
          value={values.first_name}
          error={errors.first_name}
          onChange={change('first_name')}
        />
        <TextField
          label="Last name"
          name="last_name"
          autoComplete="family-name"
          required
          maxLength={signupLimits.last_name?.maxLength}
          value={values.last_name}
          error={errors.last_name}
          onChange={change('last_name')}
        />
      </div>
      <div>
        <TextField
          label="Email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          maxLength={signupLimits.email?.maxLength}
          value={values.email}
          error={errors.email}
          onChange={(e) => {
            change('email')(e);
            page.send({ type: 'email.typed', email: e.target.value });
          }}
        />
        <p aria-live="polite" className={css({ fontSize: 'sm', mt: '1', minHeight: '1.25rem' })}>
          {check === 'checking' ? <span className={note}>Checking this address…</span> : null}
          {check === 'free' ? <span className={css({ color: 'green.700' })}>This address is free.</span> : null}
          {check === 'taken' ? (
            <span className={css({ color: 'error' })}>
              An account already uses this address.{' '}
              <Link href={LOGIN} className={linkStyle}>
                Log in
              </Link>{' '}
              or{' '}
              <Link href={FORGOT} className={linkStyle}>
                reset your password
              </Link>
              .
            </span>
          ) : null}
        </p>
      </div>
      <NewPasswordFields
        labels={['Password', 'Confirm password']}
        limits={signupLimits}
        values={values}
        errors={errors}
        change={change}
      />
      <p className={note}>At least 8 characters.</p>
      {referralCode ? <p className={note}>You were invited with the referral code {referralCode}.</p> : null}
      <Button type="submit" width="full" busy={submitting}>
        {submitting ? 'Creating your account…' : 'Create account'}
      </Button>
      <p className={note}>
        Already have an account?{' '}
        <Link href={LOGIN} className={linkStyle}>
          Log in
        </Link>
      </p>
    </form>
  );
}

function SignupSent({ page }: { page: ActorRefFrom<typeof signupMachine> }) {
  const sentTo = useSelector(page, (s) => s.context.sentTo);
  const resending = useSelector(page, (s) => s.hasTag('resending'));
  const resent = useSelector(page, (s) => s.matches({ sent: 'resent' }));
  const failed = useSelector(page, (s) => s.matches({ sent: 'resendFailed' }));
  return (
    <div className={stack}>
      <Alert tone="ok">
        Check your inbox: we sent a link to verify <strong>{sentTo}</strong>. It works for 24 hours.
      </Alert>
      <p className={note}>Open the link in the email to finish, then log in.</p>
      {resent ? <Alert tone="ok">We sent a new link.</Alert> : null}
      {failed ? <Alert>Request failed</Alert> : null}
      <Button tone="secondary" busy={resending} onClick={() => page.send({ type: 'resend.requested' })}>
        {resending ? 'Sending…' : 'Send the link again'}
      </Button>
      <Link href={LOGIN} className={linkStyle}>
        Go to log in
      </Link>
    </div>
  );
}

/** /kyc-verification without a session: what the identity check asks for, and the way in to complete it. */
export function KycIntroPage() {
  return (
    <Card title={routeTitle(routes.kycVerification, {})}>
      <div className={stack}>
        <p>
          Sellers verify their identity before they sell. Log in to upload your documents and sign the seller contract:
        </p>
        <ul className={css({ listStyle: 'disc', pl: '5', fontSize: 'sm' })}>
          <li>a photo ID (passport, driving licence or national identity card)</li>
          <li>a proof of address</li>
          <li>for a company, its business registration</li>
        </ul>
        <p className={note}>PDF, JPG or PNG, up to 10 MB each. We review them and tell you when you can sell.</p>
        <Link href={href.login(routes.kycVerification.href({}))} className={linkStyle}>
          Log in to continue
        </Link>
        <Link href={routes.signup.href({})} className={linkStyle}>
          Create an account
        </Link>
      </div>
    </Card>
  );
}

/** /verify-email/token/{token} */
export function VerifyEmailPage({ token }: { token: string }) {
  const page = useViewActor(verifyEmailMachine, `verify-email-${token}`, { token });
  const title = routeTitle(routes.verifyEmail, { token });
  return <Card title={title}>{page ? <VerifyEmail page={page} /> : <p className={note}>Verifying…</p>}</Card>;
}

function VerifyEmail({ page }: { page: ActorRefFrom<typeof verifyEmailMachine> }) {
  const state = useSelector(page, (s) =>
    s.matches('verifying')
      ? 'verifying'
      : s.matches('verified')
        ? 'verified'
        : s.matches('failed')
          ? 'failed'
          : 'refused',
  );
  const error = useSelector(page, (s) => s.context.error);
  const resent = useSelector(page, (s) => s.matches({ refused: 'resent' }));
  const form = useSelector(page, (s) => s.children.resendForm as ActorRefFrom<typeof resendFormMachine> | undefined);
  if (state === 'verifying') return <p role="status">Verifying your email address…</p>;
  if (state === 'verified')
    return (
      <div className={stack}>
        <Alert tone="ok">Your email address is verified. You can log in now.</Alert>
        <Link href={LOGIN} className={linkStyle}>
          Log in
        </Link>
      </div>
    );
  if (state === 'failed')
    return (
      <div className={stack}>
        <Alert>{error}</Alert>
        <Button onClick={() => page.send({ type: 'retry.requested' })}>Try again</Button>
      </div>
    );
  return (
    <div className={stack}>
      <Alert>{error}</Alert>
      {resent ? (
        <Alert tone="ok">If an account at this address is waiting to be verified, we sent it a new link.</Alert>
      ) : form ? (
        <EmailForm form={form} label="Send a new link" busyLabel="Sending…" />
      ) : null}
    </div>
  );
}

/** /login/unlock/{token} */
export function UnlockAccountPage({ token }: { token: string }) {
  const page = useViewActor(unlockAccountMachine, `unlock-account-${token}`, { token });
  const title = routeTitle(routes.unlockAccount, { token });
  return <Card title={title}>{page ? <UnlockAccount page={page} /> : <p className={note}>Unlocking…</p>}</Card>;
}

function UnlockAccount({ page }: { page: ActorRefFrom<typeof unlockAccountMachine> }) {
  const state = useSelector(page, (s) =>
    s.matches('unlocking')
      ? 'unlocking'
      : s.matches('unlocked')
        ? 'unlocked'
        : s.matches('failed')
          ? 'failed'
          : 'refused',
  );
  const error = useSelector(page, (s) => s.context.error);
  if (state === 'unlocking') return <p role="status">Unlocking your account…</p>;
  if (state === 'unlocked')
    return (
      <div className={stack}>
        <Alert tone="ok">
          Your account is unlocked, and this browser will be let in even while someone keeps guessing. Log in now.
        </Alert>
        <Link href={LOGIN} className={linkStyle}>
          Log in
        </Link>
      </div>
    );
  if (state === 'failed')
    return (
      <div className={stack}>
        <Alert>{error}</Alert>
        <Button onClick={() => page.send({ type: 'retry.requested' })}>Try again</Button>
      </div>
    );
  return (
    <div className={stack}>
      <Alert>{error}</Alert>
      <Link href={LOGIN} className={linkStyle}>
        Log in
      </Link>
      <Link href={routes.forgotPassword.href({})} className={linkStyle}>
        Reset your password
      </Link>
    </div>
  );
}

function EmailForm({ form, label, busyLabel }: { form: AnyActorRef; label: string; busyLabel: string }) {
  const { values, errors, submitting, refusal, change, submit } = useAccountForm(form);
  return (
    <form noValidate onSubmit={submit} className={stack}>
      {refusal ? <Alert>{refusal}</Alert> : null}
      <TextField
        label="Email"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
        maxLength={emailLimits.email?.maxLength}
        value={values.email}
        error={errors.email}
        onChange={change('email')}
      />
      <Button type="submit" width="full" busy={submitting}>
        {submitting ? busyLabel : label}
      </Button>
    </form>
  );
}

/** /reset-password: 'Forgot password?' from /login. */
export function ForgotPasswordPage() {
  const form = useViewActor(forgotPasswordFormMachine, 'forgot-password', { values: { email: '' } });
  const done = useSelector(form, (s) => (s?.status === 'done' ? (s.output?.email ?? null) : null));
  return (
    <Card title={routeTitle(routes.forgotPassword, {})}>
      {done ? (
        <div className={stack}>
          <Alert tone="ok">
            If an account uses <strong>{done}</strong>, we sent it a link to reset the password. It works for 1 hour.
          </Alert>
          <Link href={LOGIN} className={linkStyle}>
            Back to log in
          </Link>
        </div>
      ) : form ? (
        <div className={stack}>
          <p className={note}>
            Enter the email address of your account and we will send you a link to choose a new password.
          </p>
          <EmailForm form={form} label="Send reset link" busyLabel="Sending…" />
          <Link href={LOGIN} className={linkStyle}>
            Back to log in
          </Link>
        </div>
      ) : null}
    </Card>
  );
}

/** /reset-password/token/{token} */
export function ResetPasswordPage({ token }: { token: string }) {
  const form = useViewActor(resetPasswordFormMachine, `reset-password-${token}`, {
    values: { token, password: '', password_confirmation: '' },
  });
  return <Card title={routeTitle(routes.resetPassword, { token })}>{form ? <ResetForm form={form} /> : null}</Card>;
}

function ResetForm({ form }: { form: ActorRefFrom<typeof resetPasswordFormMachine> }) {
  const { values, errors, submitting, refusal, change, submit } = useAccountForm(form);
  const done = useSelector(form, (s) => s.status === 'done');
  if (done)
    return (
      <div className={stack}>
        <Alert tone="ok">Your password is changed. Log in with your new password.</Alert>
        <Link href={LOGIN} className={linkStyle}>
          Log in
        </Link>
      </div>
    );
  return (
    <form noValidate onSubmit={submit} className={stack}>
      {refusal ? (
        <Alert>
          {refusal}{' '}
          <Link href={FORGOT} className={linkStyle}>
            Ask for a new link
          </Link>
        </Alert>
      ) : null}
      {errors.token ? <Alert>{errors.token}</Alert> : null}
      <NewPasswordFields
        labels={['New password', 'Confirm new password']}
        limits={resetLimits}
        values={values}
        errors={errors}
        change={change}
      />
      <p className={note}>At least 8 characters. Every session of your account is logged out.</p>
      <Button type="submit" width="full" busy={submitting}>
        {submitting ? 'Saving…' : 'Set new password'}
      </Button>
    </form>
  );
}

/** /signup/invite/{token}: a team member invited by its seller (Settings › My Teams) chooses its password. */
export function InvitePage({ token }: { token: string }) {
  const form = useViewActor(acceptInviteFormMachine, `invite-${token}`, {
    values: { token, password: '', password_confirmation: '' },
  });
  return <Card title={routeTitle(routes.invite, { token })}>{form ? <InviteForm form={form} /> : null}</Card>;
}

function InviteForm({ form }: { form: ActorRefFrom<typeof acceptInviteFormMachine> }) {
  const { values, errors, submitting, refusal, change, submit } = useAccountForm(form);
  const done = useSelector(form, (s) => s.status === 'done');
  if (done)
    return (
      <div className={stack}>
        <Alert tone="ok">Your password is set. Log in with your email address and this password.</Alert>
        <Link href={LOGIN} className={linkStyle}>
          Log in
        </Link>
      </div>
    );
  return (
    <form noValidate onSubmit={submit} className={stack}>
      <p className={css({ fontSize: 'sm' })}>You were invited to a team on SB Portal. Choose your password.</p>
      {refusal ? <Alert>{refusal}</Alert> : null}
      {errors.token ? <Alert>{errors.token}</Alert> : null}
      <NewPasswordFields
        labels={['Password', 'Confirm password']}
        limits={acceptLimits}
        values={values}
        errors={errors}
        change={change}
      />
      <p className={note}>At least 8 characters.</p>
      <Button type="submit" width="full" busy={submitting}>
        {submitting ? 'Saving…' : 'Set password'}
      </Button>
    </form>
  );
}
