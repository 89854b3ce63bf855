import { css } from 'styled-system/css';

/** The full-screen 'Loading...' bar shown while the session or a route's code loads. */
export function FullPageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={css({
        position: 'fixed',
        inset: 0,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: '3',
        bg: 'bg.subtle',
        zIndex: 50,
      })}
    >
      <div
        aria-hidden="true"
        className={css({
          width: '200px',
          height: '4px',
          borderRadius: 'pill',
          bg: 'bg.muted',
          overflow: 'hidden',
          position: 'relative',
          _after: {
            content: '""',
            position: 'absolute',
            insetY: 0,
            left: 0,
            width: '40%',
            bg: 'accent',
            borderRadius: 'pill',
            animation: 'loaderSlide 1.1s ease-in-out infinite',
          },
        })}
      />
      <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>{label}</span>
    </div>
  );
}
