import { useCallback, useState } from 'react';
import { css } from 'styled-system/css';

/** An upload's progress as the uploader reports it (`onProgress` of openapi/upload.ts: `fraction` is 0 to 1). */
export interface ReportedProgress {
  fraction: number;
}

/** Whole percent, 0 to 100, of a reported progress (never 100 before the last byte went out). */
export const percentOf = ({ fraction }: ReportedProgress) =>
  Math.floor(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * 100);

/**
 * One upload's bar: `percent` is null while nothing uploads. `start()` shows it at 0 %, `onProgress` goes
 * to the uploader (`upload(path, form, { onProgress })`), `finish()` hides it once the answer came.
 */
export function useUploadProgress() {
  const [percent, setPercent] = useState<number | null>(null);
  const onProgress = useCallback((progress: ReportedProgress) => setPercent(percentOf(progress)), []);
  const start = useCallback(() => setPercent(0), []);
  const finish = useCallback(() => setPercent(null), []);
  return { percent, onProgress, start, finish };
}

/** An upload's progress bar, 0 to 100, for slow uploads: 'Uploading… 42%'. */
export function UploadProgress({ progress, label = 'Upload progress' }: { progress: number; label?: string }) {
  const value = Math.round(Math.min(100, Math.max(0, Number.isFinite(progress) ? progress : 0)));
  const text = `Uploading… ${value}%`;
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={text}
        className={css({ flex: 1, height: '6px', borderRadius: 'pill', bg: 'bg.muted', overflow: 'hidden' })}
      >
        <div
          className={css({ height: '100%', bg: 'accent', borderRadius: 'pill', transition: 'width 0.2s ease' })}
          style={{ width: `${value}%` }}
        />
      </div>
      {/* the bar says the same to readers (aria-valuetext) */}
      <span
        aria-hidden="true"
        className={css({ fontSize: 'xs', color: 'fg.muted', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}
      >
        {text}
      </span>
    </div>
  );
}
