import { type ReactNode, useId } from 'react';
import { css } from 'styled-system/css';
import { FieldError, FieldLabel, fieldStack } from '../../../ui/field';

/** A group of radio buttons labelled by a legend-like label, with the field's error. */
export function Choices({
  label,
  required,
  error,
  children,
}: {
  label: string;
  required?: boolean;
  error?: string | null;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={fieldStack}>
      <FieldLabel id={`${id}-label`} required={required}>
        {label}
      </FieldLabel>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}
      >
        {children}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
