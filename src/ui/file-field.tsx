import { type ChangeEvent, type DragEvent, useId, useState } from 'react';
import { css } from 'styled-system/css';
import { acceptAttribute, checkFile, DEFAULT_FILE_RULES, type FileRules, formatFileSize } from '../lib/file-rules';
import { FieldError, FieldLabel, fieldStack, isErrorShown } from './field';
import { AttachmentPinIcon, CloseIcon, UploadIcon } from './icons';
import { UploadProgress } from './upload-progress';

export interface FileFieldProps {
  label: string;
  /** Allowed types and size limit; default any type up to 5 MB. `DEPOSIT_PROOF_RULES` for the deposit proof. */
  rules?: FileRules;
  file: File | null;
  /** Called with an accepted file, or with null when the file is removed or a refused one replaces it. */
  onFileChange: (file: File | null) => void;
  required?: boolean;
  disabled?: boolean;
  error?: string | null;
  showErrors?: boolean;
  /** 0 to 100 while the file uploads: shows the progress bar. */
  progress?: number | null;
  name?: string;
}

/**
 * A file field with drag and drop. A file of another type or over the limit is refused at once with the
 * spec's message ('Invalid file type. Allowed types: pdf, jpg, jpeg, png', 'File size exceeds 10MB limit');
 * an accepted file shows its name and size.
 */
export function FileField({
  label,
  rules = DEFAULT_FILE_RULES,
  file,
  onFileChange,
  required,
  disabled,
  error,
  showErrors = true,
  progress = null,
  name,
}: FileFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // a refusal is the user's doing and shows at once; the form's own error waits for showErrors
  const message = refusal ?? (isErrorShown(error, showErrors) ? error : null);

  const take = (chosen: File | undefined) => {
    if (!chosen) return;
    const problem = checkFile(chosen, rules);
    setRefusal(problem);
    onFileChange(problem ? null : chosen);
  };
  const onInput = (e: ChangeEvent<HTMLInputElement>) => {
    take(e.target.files?.[0]);
    e.target.value = ''; // choosing the same file again still counts
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) take(e.dataTransfer.files[0]);
  };
  const types = rules.types?.length ? rules.types.join(', ') : 'Any file';

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
          Drag and drop a file here, or{' '}
          <span className={css({ color: 'accent', textDecoration: 'underline', fontWeight: 'medium' })}>browse</span>
        </span>
        <span id={hintId} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {types}, up to {rules.maxMb} MB
        </span>
        <input
          id={id}
          name={name}
          type="file"
          accept={acceptAttribute(rules)}
          required={required && !file}
          disabled={disabled}
          onChange={onInput}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${hintId} ${errorId}` : hintId}
          // the input covers the whole zone, invisible: a click anywhere browses, and it keeps the focus
          className={css({
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            opacity: 0,
            cursor: 'pointer',
            _disabled: { cursor: 'not-allowed' },
          })}
        />
      </div>
      {file ? (
        <div
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
            onClick={() => {
              setRefusal(null);
              onFileChange(null);
            }}
            className={css({
              ml: 'auto',
              display: 'inline-flex',
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
      ) : null}
      {file && progress !== null ? <UploadProgress progress={progress} label={`Uploading ${file.name}`} /> : null}
      <FieldError id={errorId} error={message} />
    </div>
  );
}
