import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect } from 'react';
import type { AnyActorRef } from 'xstate';

/**
 * A form on the shared form machine (machines/form.machine.ts) as its view needs it: values, errors, whether it
 * is submitting, the form-level refusal, setters and the submit; and the focus moved to the first refused field
 * when the machine emits `form.invalid`. The account pages and My Teams' invite and member forms read it.
 */
export function useFormActor<V extends object>(form: AnyActorRef) {
  const values = useSelector(form, (s) => s.context.values) as V;
  const errors = useSelector(form, (s) => s.context.errors) as Record<string, string>;
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const refusal = useSelector(form, (s) => (s.hasTag('error') ? (s.context.formError as string | null) : null));
  useEffect(() => {
    const sub = form.on('form.invalid', ({ field }: { field: string }) => {
      document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(field)}"]`)?.focus();
    });
    return () => sub.unsubscribe();
  }, [form]);
  const set = (field: keyof V & string, value: unknown) => form.send({ type: 'field.changed', field, value });
  const change = (field: keyof V & string) => (e: { target: { value: string } }) => set(field, e.target.value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submitted' });
  };
  return { values, errors, submitting, refusal, set, change, submit };
}
