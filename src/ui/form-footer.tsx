import { css } from 'styled-system/css';
import { Button } from './button';

export interface FormFooterProps {
  onCancel: () => void;
  /** Submit stays disabled until the form is valid. */
  valid: boolean;
  /** Submit shows a loading state (spinner, aria-busy) while true. */
  submitting?: boolean;
  submitLabel?: string;
  cancelLabel?: string;
  /** Without it Submit is a form's submit button; with it, a plain button that calls it. */
  onSubmit?: () => void;
  /** What disabled Submit says under it while the form is not valid. */
  whyInvalid?: string;
}

/** Cancel and Submit at the foot of a form or panel; stacked full width on a phone, Submit on top. */
export function FormFooter({
  onCancel,
  valid,
  submitting = false,
  submitLabel = 'Submit',
  cancelLabel = 'Cancel',
  onSubmit,
  whyInvalid = 'Fill in the required fields first.',
}: FormFooterProps) {
  return (
    <div
      className={css({
        display: 'flex',
        justifyContent: 'flex-end',
        gap: '3',
        pt: '4',
        borderTop: '1px solid {colors.border}',
        _phone: { flexDirection: 'column-reverse', '& > button': { width: '100%' } },
      })}
    >
      <Button tone="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        type={onSubmit ? 'button' : 'submit'}
        onClick={onSubmit}
        disabled={!valid}
        busy={submitting}
        whyDisabled={whyInvalid}
      >
        {submitLabel}
      </Button>
    </div>
  );
}
