import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * An IntersectionObserver the test moves by hand (jsdom has none, and lays nothing out): `show()` brings the
 * observed elements into view (those `which` picks, every one by default) and `observed()` lists what is
 * watched now. Undo with `vi.unstubAllGlobals()`.
 */
export function fakeIntersectionObserver() {
  const observers = new Set<FakeIntersectionObserver>();
  class FakeIntersectionObserver {
    readonly targets: Element[] = [];
    constructor(readonly callback: IntersectionObserverCallback) {
      observers.add(this);
    }
    observe(el: Element) {
      this.targets.push(el);
    }
    unobserve(el: Element) {
      this.targets.splice(this.targets.indexOf(el) >>> 0, 1);
    }
    disconnect() {
      this.targets.length = 0;
      observers.delete(this);
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  const observed = () => [...observers].flatMap((o) => o.targets);
  return {
    observed,
    show: (which: (el: Element) => boolean = () => true) =>
      act(() => {
        for (const o of [...observers]) {
          const entries = o.targets
            .filter(which)
            .map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
          if (entries.length) o.callback(entries, o as unknown as IntersectionObserver);
        }
      }),
  };
}
