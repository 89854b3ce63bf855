import type { ButtonHTMLAttributes } from 'react';
import { cva, cx } from 'styled-system/css';

export const button = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    minHeight: '40px',
    px: '4',
    borderRadius: 'md',
    fontWeight: 'semibold',
    fontSize: 'sm',
    cursor: 'pointer',
    transition: 'background 0.15s',
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
  },
  variants: {
    tone: {
      primary: { bg: 'accent', color: 'accent.fg', _hover: { _enabled: { bg: 'accent.hover' } } },
      secondary: {
        bg: 'bg',
        color: 'fg',
        border: '1px solid',
        borderColor: 'border',
        _hover: { _enabled: { bg: 'bg.muted' } },
      },
      ghost: { bg: 'transparent', color: 'fg', _hover: { _enabled: { bg: 'bg.muted' } } },
    },
    width: { auto: {}, full: { width: '100%' } },
  },
  defaultVariants: { tone: 'primary', width: 'auto' },
});

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  tone?: 'primary' | 'secondary' | 'ghost';
  width?: 'auto' | 'full';
  busy?: boolean;
};

/** A button that says when it is working: disabled and aria-busy while `busy`. */
export function Button({ tone, width, busy = false, className, disabled, type = 'button', ...rest }: Props) {
  return (
    <button
      type={type}
      className={cx(button({ tone, width }), className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    />
  );
}
