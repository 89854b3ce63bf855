import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Loaders of code asked for on demand (the shell, the pages, the drawers one area opens for another). An import
 * asked for twice is fetched once (the browser's module map), so a preload and the render share it; the modules
 * that arrived are kept by the loader that asked for them.
 */
const arrived = new WeakMap<() => Promise<unknown>, unknown>();

/** A loader that remembers its module once it has arrived (for `lazyLoaded`). */
export function remembered<M>(load: () => Promise<M>): () => Promise<M> {
  const run = () =>
    load().then((module) => {
      arrived.set(run, module);
      return module;
    });
  return run;
}

/**
 * `React.lazy` that does not suspend when the module has already arrived (`preloadRoute` asked for it beside the
 * profile calls). A lazy component given a promise suspends on its first render even when the promise has long
 * resolved; the shell, the gated routes and the page did so one after the other, three suspended renders, and
 * React holds back the content of a boundary whose fallback has just shown (about 300 ms each time): the
 * dashboard's widgets painted 400 ms after the shell on a loaded machine. A thenable that answers at once lets
 * React take the module in the same render.
 */
// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own constraint on the component
export function lazyLoaded<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => {
    const module = arrived.get(load) as { default: T } | undefined;
    if (!module) return load();
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, one that React reads at once
    const ready = { then: (done: (m: { default: T }) => void) => done(module) };
    return ready as unknown as Promise<{ default: T }>;
  });
}
