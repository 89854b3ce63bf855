import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { css, cx } from 'styled-system/css';
import { CloseIcon } from './icons';
import { useEscapeKey } from './use-escape-key';
import { useFocusTrap } from './use-focus-trap';
import './ui-kit.css';

/** What a drawer and a modal share: a portal, a dimmed backdrop, a focus trap, Escape, no page scroll behind. */
export interface OverlayProps {
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Buttons pinned under the body, such as a `FormFooter`. */
  footer?: ReactNode;
  /** A click on the backdrop closes. */
  closeOnOutsideClick?: boolean;
}

export function OverlayFrame({
  kind,
  closing,
  onClose,
  title,
  children,
  footer,
  closeOnOutsideClick,
}: OverlayProps & { kind: 'drawer' | 'modal'; closing: boolean }) {
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  useFocusTrap(panel, !closing);
  useEffect(() => {
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);
  useEscapeKey(!closing, onClose);

  return createPortal(
    <div
      data-state={closing ? 'closing' : 'open'}
      inert={closing || undefined}
      className={cx(
        css({ position: 'fixed', inset: 0, zIndex: 40, display: 'flex' }),
        kind === 'drawer'
          ? css({ justifyContent: 'flex-end', alignItems: 'stretch' })
          : css({ justifyContent: 'center', alignItems: 'center', p: '4' }),
      )}
    >
      {/* the backdrop is a pointer shortcut (Escape and Close are the keyboard's); a press on it keeps the focus inside */}
      <div
        aria-hidden="true"
        data-motion=""
        onMouseDown={(e) => e.preventDefault()}
        onClick={closeOnOutsideClick ? onClose : undefined}
        className={css({
          position: 'absolute',
          inset: 0,
          bg: 'rgba(17, 24, 39, 0.45)',
          animation: 'sbFadeIn 300ms ease both',
          '[data-state=closing] > &': { animation: 'sbFadeOut 300ms ease both' },
        })}
      />
      <section
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-motion=""
        className={cx(
          css({
            position: 'relative',
            display: 'flex',
            flexDirection: 'column',
            bg: 'bg',
            color: 'fg',
            boxShadow: '0 10px 40px rgba(17, 24, 39, 0.25)',
            outline: 'none',
          }),
          kind === 'drawer'
            ? css({
                width: '480px',
                maxWidth: '100%',
                height: '100%',
                animation: 'sbSlideIn 300ms ease-out both',
                '[data-state=closing] > &': { animation: 'sbSlideOut 300ms ease-in both' },
                _phone: { width: '100%' },
              })
            : css({
                width: '520px',
                maxWidth: '100%',
                maxHeight: 'calc(100dvh - 32px)',
                borderRadius: 'lg',
                animation: 'sbFadeIn 150ms ease both',
              }),
        )}
      >
        <header
          className={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '3',
            px: '5',
            py: '4',
            borderBottom: '1px solid {colors.border}',
          })}
        >
          <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            {title}
          </h2>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className={css({
              display: 'inline-flex',
              p: '2',
              borderRadius: 'md',
              cursor: 'pointer',
              color: 'fg.muted',
              _hover: { bg: 'bg.muted', color: 'fg' },
            })}
          >
            <CloseIcon size={18} />
          </button>
        </header>
        <div className={css({ flex: 1, overflowY: 'auto', px: '5', py: '4' })}>{children}</div>
        {footer ? <div className={css({ px: '5', pb: '4' })}>{footer}</div> : null}
      </section>
    </div>,
    document.body,
  );
}
