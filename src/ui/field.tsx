import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

export const fieldLabel = css({ fontSize: 'sm', fontWeight: 'medium', color: 'fg' });

/** A field's label with the required marker (a red star; the field itself carries `required` for readers). */
export function FieldLabel({
  htmlFor,
  id,
  required,
  children,
}: {
  htmlFor?: string;
  id?: string;
  required?: boolean;
  children: ReactNode;
}) {
  const marker = required ? (
    <span aria-hidden="true" className={css({ color: 'error', ml: '0.5' })}>
      *
    </span>
  ) : null;
  // a label element only where there is a control to point at; otherwise text that aria-labelledby names
  return htmlFor ? (
    <label htmlFor={htmlFor} id={id} className={fieldLabel}>
      {children}
      {marker}
    </label>
  ) : (
    <span id={id} className={fieldLabel}>
      {children}
      {marker}
    </span>
  );
}

/** Whether a field's error is on show: only when there is one and showing errors is on (spec section 5). */
export const isErrorShown = (error: string | null | undefined, showErrors = true): error is string =>
  Boolean(error) && showErrors;

/**
 * A field's error, in red under it, only when there is an error and showing errors is on. Point the field's
 * `aria-describedby` at `id` when `isErrorShown(...)`.
 */
export function FieldError({
  id,
  error,
  showErrors = true,
}: {
  id?: string;
  error?: string | null;
  showErrors?: boolean;
}) {
  if (!isErrorShown(error, showErrors)) return null;
  return (
    <span id={id} className={css({ color: 'error', fontSize: 'sm' })}>
      {error}
    </span>
  );
}

export const fieldStack = css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: 0 });
