import { useEffect, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { CheckIcon, CopyIcon } from './icons';

/** How long the check mark stays after a copy (spec section 9). */
export const COPIED_MS = 2000;

/**
 * Copies `value` to the clipboard. After a copy it shows a check mark for 2 seconds, then the copy icon
 * again; a failed copy is only logged (spec section 8).
 */
export function CopyButton({
  value,
  label,
}: {
  value: string /** What is copied: 'IBAN' names it 'Copy IBAN'. */;
  label: string;
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch (error) {
      console.error('Copy to the clipboard failed', error);
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <>
      <button
        type="button"
        aria-label={`Copy ${label}`}
        data-copied={copied || undefined}
        onClick={() => void copy()}
        className={css({
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: '36px',
          height: '36px',
          flexShrink: 0,
          borderRadius: 'md',
          border: '1px solid {colors.border}',
          bg: 'bg',
          color: 'fg.muted',
          cursor: 'pointer',
          _hover: { bg: 'bg.muted', color: 'fg' },
          '&[data-copied]': { color: 'success', borderColor: 'success' },
        })}
      >
        {copied ? <CheckIcon data-icon="check" /> : <CopyIcon data-icon="copy" />}
      </button>
      <span role="status" className={css({ srOnly: true })}>
        {copied ? `${label} copied` : ''}
      </span>
    </>
  );
}
