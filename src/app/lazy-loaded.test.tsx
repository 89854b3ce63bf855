import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyLoaded, remembered } from './lazy-loaded';

const page = () => ({ default: () => <p>the page</p> });

describe('lazyLoaded', () => {
  it('renders a module that has already arrived in the first render, without its fallback', async () => {
    const load = remembered(async () => page());
    await load(); // what preloadRoute does beside the profile calls
    const Page = lazyLoaded(load);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.queryByText('loading')).toBeNull();
    expect(screen.getByText('the page')).toBeInTheDocument();
  });

  it('suspends, as React.lazy does, for a module not asked for yet', async () => {
    const Page = lazyLoaded(remembered(async () => page()));
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('the page')).toBeInTheDocument();
  });
});
