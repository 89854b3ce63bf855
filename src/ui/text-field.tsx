import { type InputHTMLAttributes, useId } from 'react';
import { css } from 'styled-system/css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  /** Shown in red under the field, and announced, only when there is one. */
  error?: string | null;
};

export function TextField({ label, error, required, ...input }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: 'medium', color: 'fg' })}>
        {label}
        {required ? (
          <span aria-hidden="true" className={css({ color: 'error', ml: '0.5' })}>
            *
          </span>
        ) : null}
      </label>
      <input
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={css({
          height: '42px',
          px: '3',
          borderRadius: 'md',
          border: '1px solid',
          borderColor: error ? 'error' : 'border',
          bg: 'bg',
          fontSize: 'md',
          _focusVisible: { outline: '2px solid', outlineColor: 'focus', outlineOffset: '0' },
        })}
        {...input}
      />
      {error ? (
        <span id={errorId} className={css({ color: 'error', fontSize: 'sm' })}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
