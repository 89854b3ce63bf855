import { type InputHTMLAttributes, useId } from 'react';
import { css, cx } from 'styled-system/css';
import { FieldError, FieldLabel, fieldStack, isErrorShown } from './field';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  /** Shown in red under the field, and announced, only when there is one (and `showErrors` is on). */
  error?: string | null;
  /** Off until the form wants errors seen, such as after a first submit (default on). */
  showErrors?: boolean;
};

export const inputBox = css({
  height: '42px',
  px: '3',
  width: '100%',
  borderRadius: 'md',
  border: '1px solid {colors.border}',
  bg: 'bg',
  color: 'fg',
  fontSize: 'md',
  // a value longer than the box (a long name on a phone) ends in … until the field is focused
  textOverflow: 'ellipsis',
  _focusVisible: { outline: '2px solid', outlineColor: 'focus', outlineOffset: '0' },
  _disabled: { bg: 'bg.muted', color: 'fg.muted', cursor: 'not-allowed' },
  '&[aria-invalid=true]': { borderColor: 'error' },
});

export function TextField({ label, error, showErrors = true, required, className, ...input }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  const shown = isErrorShown(error, showErrors);
  return (
    <div className={fieldStack}>
      <FieldLabel htmlFor={id} required={required}>
        {label}
      </FieldLabel>
      <input
        id={id}
        required={required}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? errorId : undefined}
        className={cx(inputBox, className)}
        {...input}
      />
      <FieldError id={errorId} error={error} showErrors={showErrors} />
    </div>
  );
}
