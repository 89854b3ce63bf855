import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createUploader } from '../../openapi/upload';
import { DEPOSIT_PROOF_RULES } from '../lib/file-rules';
import { FileField } from './file-field';
import { percentOf, useUploadProgress } from './upload-progress';

/** The browser's request as the uploader sees it, driven by the test: progress events, then the answer. */
class TestRequest {
  static latest: TestRequest | null = null;
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  status = 0;
  responseText = '';
  open() {}
  setRequestHeader() {}
  addEventListener(type: string, listener: EventListener) {
    this.events.addEventListener(type, listener);
  }
  send() {
    TestRequest.latest = this;
  }
  abort() {}
  progress(loaded: number, total: number) {
    const event = Object.assign(new Event('progress'), { lengthComputable: true, loaded, total });
    this.upload.dispatchEvent(event);
  }
  answer() {
    this.status = 200;
    this.responseText = JSON.stringify({ success: true, data: {} });
    this.events.dispatchEvent(new Event('load'));
  }
}

const upload = createUploader({ XMLHttpRequest: TestRequest as unknown as typeof XMLHttpRequest });
const proof = new File(['%PDF-1.7'], 'proof.pdf', { type: 'application/pdf' });

function Deposit() {
  const progress = useUploadProgress();
  return (
    <>
      <FileField
        label="Deposit proof"
        rules={DEPOSIT_PROOF_RULES}
        file={proof}
        onFileChange={() => {}}
        progress={progress.percent}
      />
      <button
        type="button"
        onClick={() => {
          progress.start();
          void upload('/api/upload-pop', new FormData(), { onProgress: progress.onProgress }).finally(progress.finish);
        }}
      >
        Send
      </button>
    </>
  );
}

describe('upload progress', () => {
  it("the file field's bar follows the uploader's onProgress: 'Uploading… 42%', then goes when the answer comes", async () => {
    render(<Deposit />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => screen.getByRole('button', { name: 'Send' }).click());
    const bar = screen.getByRole('progressbar', { name: 'Uploading proof.pdf' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    act(() => TestRequest.latest?.progress(420, 1000));
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    expect(bar).toHaveAttribute('aria-valuetext', 'Uploading… 42%');
    expect(screen.getByText('Uploading… 42%')).toBeVisible();
    await act(async () => TestRequest.latest?.answer());
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('counts whole percents and never shows 100 before the last byte', () => {
    expect(percentOf({ fraction: 0.999 })).toBe(99);
    expect(percentOf({ fraction: 1 })).toBe(100);
    expect(percentOf({ fraction: Number.NaN })).toBe(0);
    expect(percentOf({ fraction: 2 })).toBe(100);
  });
});
