import type { AnyActorRef } from 'xstate';
import type { FieldLimits } from '../../../machines/form.machine';
import { useFormActor } from '../../lib/use-form-actor';
import { TextField } from '../../ui/text-field';

/** An account form's state as its view needs it (sign-up, reset, change password, team invite). */
export const useAccountForm = (form: AnyActorRef) => useFormActor<Record<string, string>>(form);

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
