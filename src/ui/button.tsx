import type { ButtonHTMLAttributes } from 'react';
import { css, cva, cx } from 'styled-system/css';

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
        border: '1px solid {colors.border}',
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

const spinner = css({
  width: '14px',
  height: '14px',
  borderRadius: 'pill',
  border: '2px solid currentColor',
  borderRightColor: 'transparent',
  animation: 'spin 0.8s linear infinite',
  flexShrink: 0,
});

/** A button that says when it is working: disabled, aria-busy and a spinner while `busy`. */
export function Button({ tone, width, busy = false, className, disabled, type = 'button', children, ...rest }: Props) {
  return (
    <button
      type={type}
      className={cx(button({ tone, width }), className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span aria-hidden="true" className={spinner} /> : null}
      {children}
    </button>
  );
}
