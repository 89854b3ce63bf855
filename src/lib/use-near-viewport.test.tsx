import { render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeIntersectionObserver } from './testing/fake-intersection-observer';
import { useNearViewport } from './use-near-viewport';

function Probe({ name }: { name: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  return (
    <div ref={ref} data-testid={name}>
      {near ? 'near' : 'far'}
    </div>
  );
}

/** Lays the probes out (jsdom lays nothing out): each at the `top` given for its test id, 100 px high. */
function layOut(tops: Record<string, number>) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const top = tops[this.dataset.testid ?? ''];
    if (top === undefined) return new DOMRect(0, 0, 0, 0);
    return new DOMRect(0, top, 300, 100);
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('useNearViewport', () => {
  it('is near at once where there is no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe name="a" />);
    expect(screen.getByTestId('a')).toHaveTextContent('near');
  });

  it('counts what is laid out in or close to the viewport at its first render, and watches the rest', () => {
    const io = fakeIntersectionObserver();
    vi.stubGlobal('innerHeight', 800);
    vi.stubGlobal('innerWidth', 400);
    // in view; 150 px under the fold (within the margin); far under it; above it, scrolled past
    layOut({ inView: 100, close: 950, far: 2000, above: -500 });
    render(
      <>
        <Probe name="inView" />
        <Probe name="close" />
        <Probe name="far" />
        <Probe name="above" />
      </>,
    );
    expect(screen.getByTestId('inView')).toHaveTextContent('near');
    expect(screen.getByTestId('close')).toHaveTextContent('near');
    expect(screen.getByTestId('far')).toHaveTextContent('far');
    expect(screen.getByTestId('above')).toHaveTextContent('far');
    // only the two far ones are watched
    expect(io.observed().map((el) => (el as HTMLElement).dataset.testid)).toEqual(['far', 'above']);
  });

  it('turns near when the observer sees it come, stays near, and stops watching it', () => {
    const io = fakeIntersectionObserver();
    render(<Probe name="b" />); // not laid out: the observer decides
    expect(screen.getByTestId('b')).toHaveTextContent('far');
    expect(io.observed()).toHaveLength(1);
    io.show();
    expect(screen.getByTestId('b')).toHaveTextContent('near');
    expect(io.observed()).toHaveLength(0);
  });

  it('stays far on an entry that does not intersect', () => {
    const io = fakeIntersectionObserver();
    render(<Probe name="c" />);
    io.show(() => false);
    expect(screen.getByTestId('c')).toHaveTextContent('far');
    expect(io.observed()).toHaveLength(1);
  });
});
