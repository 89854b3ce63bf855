import { OverlayFrame, type OverlayProps } from './overlay';
import { usePresence } from './use-presence';

/** The drawer mounts this long after it is asked to open (spec section 2). */
export const DRAWER_OPEN_DELAY_MS = 50;
/** …and stays this long after it is asked to close, while it slides out. */
export const DRAWER_CLOSE_MS = 300;

/**
 * The right-side slide-over panel: it opens 50 ms after `open` turns true and unmounts after its 300 ms
 * close animation. While open it traps the focus; Escape, the close button and (by default) a click on
 * the backdrop close it, and the focus goes back to what opened it. Full width on a phone.
 */
export function Drawer({ open, closeOnOutsideClick = true, ...rest }: OverlayProps & { open: boolean }) {
  const { mounted, phase } = usePresence(open, { enterDelay: DRAWER_OPEN_DELAY_MS, exitDuration: DRAWER_CLOSE_MS });
  if (!mounted) return null;
  return (
    <OverlayFrame kind="drawer" closing={phase === 'closing'} closeOnOutsideClick={closeOnOutsideClick} {...rest} />
  );
}
