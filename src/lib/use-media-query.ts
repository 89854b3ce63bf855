import { useSyncExternalStore } from 'react';

const lists = new Map<string, MediaQueryList>();
const listOf = (query: string): MediaQueryList | null => {
  if (typeof globalThis.matchMedia !== 'function') return null;
  let list = lists.get(query);
  if (!list) {
    list = globalThis.matchMedia(query);
    lists.set(query, list);
  }
  return list;
};

/**
 * Whether a media query matches now, following its changes (a window resized, a phone turned); null where the
 * platform cannot say (no `matchMedia`: jsdom), so that a caller can render for every case there.
 */
export function useMediaQuery(query: string): boolean | null {
  return useSyncExternalStore(
    (changed) => {
      const list = listOf(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    },
    () => listOf(query)?.matches ?? null,
    () => null,
  );
}
