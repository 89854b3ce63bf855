import { useId } from 'react';
import { css } from 'styled-system/css';
import { FieldError, FieldLabel, fieldStack } from '../../../ui/field';

export function Notes({
  value,
  onChange,
  error,
  label = 'Notes for the buyer (optional)',
  maxLength = 1000,
}: {
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  label?: string;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div className={fieldStack}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <textarea
        id={id}
        rows={3}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        className={css({
          border: '1px solid {colors.border}',
          borderRadius: 'md',
          p: '2',
          fontSize: 'md',
          bg: 'bg',
          color: 'fg',
        })}
      />
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
