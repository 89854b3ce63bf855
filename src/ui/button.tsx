import { type ButtonHTMLAttributes, useId } from 'react';
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
  /**
   * Why the button is disabled, said beside it (and read with it) while it is disabled and not busy: "Upload each
   * document and sign the contract first." A disabled button without a reason leaves the person guessing.
   */
  whyDisabled?: string | null;
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

const why = css({ fontSize: 'xs', color: 'fg.muted' });

/**
 * A button that says when it is working (disabled, aria-busy and a spinner while `busy`) and why it cannot be
 * used (`whyDisabled`, shown beside it and named by its aria-describedby while disabled).
 */
export function Button({
  tone,
  width,
  busy = false,
  className,
  disabled,
  type = 'button',
  children,
  whyDisabled,
  ...rest
}: Props) {
  const whyId = useId();
  const saysWhy = Boolean(disabled && !busy && whyDisabled);
  const element = (
    <button
      type={type}
      className={cx(button({ tone, width }), className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
      aria-describedby={
        saysWhy ? [rest['aria-describedby'], whyId].filter(Boolean).join(' ') : rest['aria-describedby']
      }
    >
      {busy ? <span aria-hidden="true" className={spinner} /> : null}
      {children}
    </button>
  );
  // the reason follows the button as its sibling: the button itself stays where it is in the tree (no remount,
  // no lost reference) when it is enabled again
  return (
    <>
      {element}
      {saysWhy ? (
        <span id={whyId} className={why}>
          {whyDisabled}
        </span>
      ) : null}
    </>
  );
}
