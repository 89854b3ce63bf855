import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { loginFormMachine, passwordFormMachine } from '../../../machines/login-form.machine';
import { useSessionChild } from '../../app/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { documentTitle, routes, routeTitle } from '../../routes';
import { FullPageLoader } from '../../ui/full-page-loader';
import { LoginFormView } from './login-form-view';
import { takeTypedBeforeStart } from './typed-before-start';

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

  // what was typed into the page's prerendered form (the HTML of /login) before this script ran, in place
  // before the first paint of this form
  useLayoutEffect(() => {
    const typed = takeTypedBeforeStart();
    if (!typed) return;
    for (const field of ['email', 'password'] as const)
      if (typed[field] !== '') form.send({ type: 'field.changed', field, value: typed[field] });
    if (typed.focused) document.querySelector<HTMLInputElement>(`input[name="${typed.focused}"]`)?.focus();
  }, [form]);

  return (
    <LoginFormView
      values={values}
      errors={errors}
      submitting={submitting}
      message={refusal ?? notice}
      onField={(field, value) => form.send({ type: 'field.changed', field, value })}
      onSubmit={() => form.send({ type: 'form.submitted' })}
    />
  );
}
