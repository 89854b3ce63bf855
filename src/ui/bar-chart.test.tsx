import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeIntersectionObserver as fakeObserver } from '../lib/testing/fake-intersection-observer';
import { BarChart } from './bar-chart';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('BarChart', () => {
  it('waits with its placeholder until it comes near the viewport, then loads the library and draws', async () => {
    const io = fakeObserver();
    render(<BarChart title="Gross sales" bars={[{ label: 'Mon', value: 120 }]} format={(v) => `£${v}`} compact />);
    const chart = screen.getByRole('img', { name: /Gross sales: 1 bars, total £120/ });
    expect(chart).toHaveAttribute('data-chart', 'waiting');
    // not loading anything: a reader is not told it is busy
    expect(chart).toHaveAttribute('aria-busy', 'false');
    expect(io.observed()).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(chart.querySelectorAll('.ct-bar')).toHaveLength(0);

    await io.show();
    // the library is fetched on demand (its first import is transformed here: allow for a busy machine)
    await waitFor(() => expect(chart).toHaveAttribute('data-chart', 'drawn'), { timeout: 15_000 });
    expect(chart.querySelectorAll('.ct-bar')).toHaveLength(1);
    expect(chart).toHaveAttribute('aria-busy', 'false');
    expect(io.observed()).toHaveLength(0);
  });
});
