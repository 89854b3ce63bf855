import { type ChangeEvent, type DragEvent, useId, useState } from 'react';
import { css, cx } from 'styled-system/css';
import { acceptAttribute, checkFile, DEFAULT_FILE_RULES, type FileRules, formatFileSize } from '../lib/file-rules';
import { button } from './button';
import { FieldError, FieldLabel, fieldStack, isErrorShown } from './field';
import { AttachmentPinIcon, CloseIcon, UploadIcon } from './icons';
import { UploadProgress } from './upload-progress';

interface CommonProps {
  /** The field's name for people; with `variant="button"` the button's accessible name. */
  label: string;
  /** Allowed types and size limit; default any type up to 5 MB. `DEPOSIT_PROOF_RULES` for the deposit proof. */
  rules?: FileRules;
  required?: boolean;
  disabled?: boolean;
  error?: string | null;
  showErrors?: boolean;
  /** 0 to 100 while the file uploads: shows the progress bar. */
  progress?: number | null;
  name?: string;
  /**
   * `zone` (default): a drop zone that lists the chosen files. `button`: a compact button that only picks (a list
   * row's action), its text `buttonText`; the files go to the change handler at once and are not listed.
   */
  variant?: 'zone' | 'button';
  buttonText?: string;
}

export interface SingleFileFieldProps extends CommonProps {
  multiple?: false;
  file: File | null;
  /** Called with an accepted file, or with null when the file is removed or a refused one replaces it. */
  onFileChange: (file: File | null) => void;
}

export interface MultipleFileFieldProps extends CommonProps {
  multiple: true;
  files: readonly File[];
  /** Called with the accepted files (all of a choice, or none when one of them is refused), or after a removal. */
  onFilesChange: (files: File[]) => void;
}

export type FileFieldProps = SingleFileFieldProps | MultipleFileFieldProps;

/** The spec's message for the first file of a choice that the rules refuse, or null when all are accepted. */
export function refusalOf(files: readonly File[], rules: FileRules): string | null {
  for (const f of files) {
    const problem = checkFile(f, rules);
    if (problem) return problem;
  }
  return null;
}

// the kit's primary button, on the label that opens the picker (a file input's own button cannot be styled so)
const pickerButton = cx(
  button(),
  css({
    _focusWithin: { outline: '2px solid', outlineColor: 'focus', outlineOffset: '2px' },
    '&[data-disabled]': { opacity: 0.5, cursor: 'not-allowed' },
  }),
);

/**
 * The kit's one file picker, with drag and drop. A file of another type or over the limit is refused at once with
 * the spec's message ('Invalid file type. Allowed types: pdf, jpg, jpeg, png', 'File size exceeds 10MB limit');
 * an accepted file shows its name and size. With `multiple`, a choice of several files is taken whole or refused
 * whole. With `variant="button"` it is a compact button for a list's row.
 */
export function FileField(props: FileFieldProps) {
  const {
    label,
    rules = DEFAULT_FILE_RULES,
    required,
    disabled,
    error,
    showErrors = true,
    progress = null,
    name,
    variant = 'zone',
    buttonText = 'Upload',
  } = props;
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // a refusal is the user's doing and shows at once; the form's own error waits for showErrors
  const message = refusal ?? (isErrorShown(error, showErrors) ? error : null);
  const chosen: readonly File[] = props.multiple ? props.files : props.file ? [props.file] : [];

  const take = (picked: readonly File[]) => {
    if (picked.length === 0) return;
    const list = props.multiple ? [...picked] : picked.slice(0, 1);
    const problem = refusalOf(list, rules);
    setRefusal(problem);
    if (props.multiple) props.onFilesChange(problem ? [] : list);
    else props.onFileChange(problem ? null : (list[0] ?? null));
  };
  const remove = (file: File) => {
    setRefusal(null);
    if (props.multiple) props.onFilesChange(props.files.filter((f) => f !== file));
    else props.onFileChange(null);
  };
  const onInput = (e: ChangeEvent<HTMLInputElement>) => {
    take([...(e.target.files ?? [])]);
    e.target.value = ''; // choosing the same file again still counts
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) take([...e.dataTransfer.files]);
  };
  const types = rules.types?.length ? rules.types.join(', ') : 'Any file';
  const input = (className: string, described: string | undefined, ariaLabel?: string) => (
    <input
      id={id}
      name={name}
      type="file"
      multiple={props.multiple || undefined}
      accept={acceptAttribute(rules)}
      required={required && chosen.length === 0}
      disabled={disabled}
      onChange={onInput}
      aria-label={ariaLabel}
      aria-invalid={message ? true : undefined}
      aria-describedby={described}
      className={className}
    />
  );

  if (variant === 'button') {
    return (
      <span className={css({ display: 'inline-grid', justifyItems: 'end', gap: '1', minWidth: 0 })}>
        <label htmlFor={id} className={pickerButton} data-disabled={disabled || undefined}>
          {buttonText}
          {input(css({ srOnly: true }), message ? errorId : undefined, label)}
        </label>
        <Problem id={errorId} refusal={refusal} message={message} />
      </span>
    );
  }

  return (
    <div className={fieldStack}>
      <FieldLabel htmlFor={id} required={required}>
        {label}
      </FieldLabel>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the zone adds drag and drop only; the file input inside takes clicks and keys */}
      <div
        data-dragging={dragging || undefined}
        data-disabled={disabled || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={css({
          position: 'relative',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: '1',
          p: '4',
          border: message ? '2px dashed {colors.error}' : '2px dashed {colors.border}',
          borderRadius: 'md',
          bg: 'bg',
          textAlign: 'center',
          cursor: 'pointer',
          transition: 'background 0.15s, border-color 0.15s',
          _hover: { bg: 'bg.subtle' },
          '&[data-dragging]': { borderColor: 'accent', bg: 'brand.50' },
          '&[data-disabled]': { cursor: 'not-allowed', bg: 'bg.muted', color: 'fg.muted' },
          _focusWithin: { outline: '2px solid', outlineColor: 'focus', outlineOffset: '2px' },
        })}
      >
        <UploadIcon size={22} className={css({ color: 'fg.muted' })} />
        <span className={css({ fontSize: 'sm' })}>
          Drag and drop {props.multiple ? 'files' : 'a file'} here, or{' '}
          <span className={css({ color: 'accent', textDecoration: 'underline', fontWeight: 'medium' })}>browse</span>
        </span>
        <span id={hintId} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {types}, up to {rules.maxMb} MB
        </span>
        {
          // the input covers the whole zone, invisible: a click anywhere browses, and it keeps the focus
          input(
            css({
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              opacity: 0,
              cursor: 'pointer',
              _disabled: { cursor: 'not-allowed' },
            }),
            message ? `${hintId} ${errorId}` : hintId,
          )
        }
      </div>
      {chosen.map((file) => (
        <div
          key={`${file.name}-${file.size}-${file.lastModified}`}
          className={css({
            display: 'flex',
            alignItems: 'center',
            gap: '2',
            px: '3',
            py: '2',
            borderRadius: 'md',
            bg: 'bg.muted',
            fontSize: 'sm',
            minWidth: 0,
          })}
        >
          <AttachmentPinIcon className={css({ flexShrink: 0, color: 'fg.muted' })} />
          <span className={css({ fontWeight: 'medium', truncate: true, minWidth: 0 })}>{file.name}</span>
          <span className={css({ color: 'fg.muted', flexShrink: 0 })}>{formatFileSize(file.size)}</span>
          <button
            type="button"
            aria-label={`Remove ${file.name}`}
            disabled={disabled || progress !== null}
            onClick={() => remove(file)}
            className={css({
              ml: 'auto',
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              minWidth: '24px',
              minHeight: '24px',
              p: '1',
              borderRadius: 'sm',
              cursor: 'pointer',
              color: 'fg.muted',
              _hover: { color: 'fg', bg: 'bg' },
              _disabled: { cursor: 'not-allowed', opacity: 0.5 },
            })}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
      {chosen.length > 0 && progress !== null ? (
        <UploadProgress
          progress={progress}
          label={chosen.length === 1 ? `Uploading ${chosen[0]?.name}` : `Uploading ${chosen.length} files`}
        />
      ) : null}
      <Problem id={errorId} refusal={refusal} message={message} />
    </div>
  );
}

/** The field's problem: a refused file is announced at once (an alert); the form's own error is the field's text. */
function Problem({ id, refusal, message }: { id: string; refusal: string | null; message: string | null | undefined }) {
  if (refusal)
    return (
      <span id={id} role="alert" className={css({ color: 'error', fontSize: 'sm', overflowWrap: 'anywhere' })}>
        {refusal}
      </span>
    );
  return <FieldError id={id} error={message} />;
}
