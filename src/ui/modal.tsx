import { OverlayFrame, type OverlayProps } from './overlay';

/**
 * A centred dialog over a dimmed page. Escape and the close button close it; a click outside closes it
 * only when `closeOnOutsideClick` is on (spec section 2). It traps the focus and gives it back on close.
 */
export function Modal({ open, closeOnOutsideClick = false, ...rest }: OverlayProps & { open: boolean }) {
  if (!open) return null;
  return <OverlayFrame kind="modal" closing={false} closeOnOutsideClick={closeOnOutsideClick} {...rest} />;
}
