import { css } from 'styled-system/css';

/** An upload's progress bar, 0 to 100, for slow uploads. */
export function UploadProgress({ progress, label = 'Upload progress' }: { progress: number; label?: string }) {
  const value = Math.round(Math.min(100, Math.max(0, Number.isFinite(progress) ? progress : 0)));
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}%`}
        className={css({ flex: 1, height: '6px', borderRadius: 'pill', bg: 'bg.muted', overflow: 'hidden' })}
      >
        <div
          className={css({ height: '100%', bg: 'accent', borderRadius: 'pill', transition: 'width 0.2s ease' })}
          style={{ width: `${value}%` }}
        />
      </div>
      <span aria-hidden="true" className={css({ fontSize: 'xs', color: 'fg.muted', minWidth: '4ch' })}>
        {value}%
      </span>
    </div>
  );
}
