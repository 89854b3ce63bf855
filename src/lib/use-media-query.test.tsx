import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMediaQuery } from './use-media-query';

function Probe({ query }: { query: string }) {
  const matches = useMediaQuery(query);
  return <output>{matches === null ? 'unknown' : String(matches)}</output>;
}

/** A matchMedia whose one list the test changes by hand. */
function fakeMatchMedia(initial: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches: initial,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => list),
  );
  return {
    listeners,
    change: (matches: boolean) =>
      act(() => {
        list.matches = matches;
        for (const listener of listeners) listener();
      }),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useMediaQuery', () => {
  it('says whether the query matches and follows its changes', () => {
    const media = fakeMatchMedia(false);
    const { unmount } = render(<Probe query="(min-width: 769px)" />);
    expect(screen.getByRole('status')).toHaveTextContent('false');
    media.change(true);
    expect(screen.getByRole('status')).toHaveTextContent('true');
    unmount();
    expect(media.listeners.size).toBe(0);
  });

  it('is null where the platform has no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    render(<Probe query="(min-width: 1px)" />);
    expect(screen.getByRole('status')).toHaveTextContent('unknown');
  });
});
