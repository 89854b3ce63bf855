import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MS, CopyButton } from './copy-button';

describe('CopyButton', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('copies, shows a check mark for 2 seconds, then the copy icon again', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<CopyButton value="GB29NWBK60161331926819" label="IBAN" />);
    const button = screen.getByRole('button', { name: 'Copy IBAN' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('GB29NWBK60161331926819');
    expect(button.querySelector('[data-icon=check]')).not.toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('IBAN copied');
    act(() => vi.advanceTimersByTime(COPIED_MS - 50));
    expect(button.querySelector('[data-icon=check]')).not.toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(button.querySelector('[data-icon=copy]')).not.toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('a failed copy is only logged', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<CopyButton value="x" label="Reference" />);
    const failure = new Error('denied');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(failure);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Copy Reference' }));
    expect(log).toHaveBeenCalledWith(expect.any(String), failure);
    expect(screen.getByRole('button', { name: 'Copy Reference' }).querySelector('[data-icon=copy]')).not.toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
