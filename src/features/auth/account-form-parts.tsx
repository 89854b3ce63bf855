import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect } from 'react';
import type { AnyActorRef } from 'xstate';
import type { FieldLimits } from '../../../machines/form.machine';
import { TextField } from '../../ui/text-field';

/**
 * An account form's state as its view needs it (sign-up, reset, change password: machines/account-forms.ts on
 * the shared form machine): values, errors, the submit, and the focus moved to the first refused field.
 */
export function useAccountForm<T extends AnyActorRef>(form: T) {
  const values = useSelector(form, (s) => s.context.values) as Record<string, string>;
  const errors = useSelector(form, (s) => s.context.errors) as Record<string, string>;
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? (s.context.formError as string | null) : null));
  useEffect(() => {
    const sub = form.on('form.invalid', ({ field }: { field: string }) => {
      document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(field)}"]`)?.focus();
    });
    return () => sub.unsubscribe();
  }, [form]);
  const change = (field: string) => (e: { target: { value: string } }) =>
    form.send({ type: 'field.changed', field, value: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  return { values, errors, submitting, refusal, change, submit };
}

/** The new password and its confirmation, with the contract's limits (sign-up, reset, change). */
export function NewPasswordFields({
  labels,
  limits,
  values,
  errors,
  change,
}: {
  labels: readonly [string, string];
  limits: Readonly<Record<string, FieldLimits>>;
  values: Record<string, string>;
  errors: Record<string, string>;
  change: (field: string) => (e: { target: { value: string } }) => void;
}) {
  return (
    <>
      <TextField
        label={labels[0]}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={limits.password?.minLength}
        maxLength={limits.password?.maxLength}
        value={values.password}
        error={errors.password}
        onChange={change('password')}
      />
      <TextField
        label={labels[1]}
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        maxLength={limits.password_confirmation?.maxLength}
        value={values.password_confirmation}
        error={errors.password_confirmation}
        onChange={change('password_confirmation')}
      />
    </>
  );
}
