import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';

/** How near the viewport (in px, every side) an element counts as near: it renders before it is scrolled to. */
export const NEAR_MARGIN_PX = 200;

/** The element is laid out and within `margin` px of the viewport now. */
function nearNow(el: HTMLElement, margin: number): boolean {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return false; // not laid out (hidden, or no layout at all): the observer says
  const height = globalThis.innerHeight ?? 0;
  const width = globalThis.innerWidth ?? 0;
  return r.top < height + margin && r.bottom > -margin && r.left < width + margin && r.right > -margin;
}

/**
 * Whether the element has come within NEAR_MARGIN_PX of the viewport, and stays so once it has: what is below
 * the fold is built as it comes near, not while the page loads. An element in view when it mounts counts at
 * once, before the first paint (a layout effect), so what the page opens on never shows a placeholder first;
 * the others follow an IntersectionObserver. True at once where there is no IntersectionObserver (jsdom).
 */
export function useNearViewport(element: RefObject<HTMLElement | null>, margin = NEAR_MARGIN_PX): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useLayoutEffect(() => {
    const el = element.current;
    if (!near && el && nearNow(el, margin)) setNear(true);
  }, [near, element, margin]);
  useEffect(() => {
    const el = element.current;
    if (near || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        setNear(true);
        observer.disconnect();
      },
      { rootMargin: `${margin}px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, element, margin]);
  return near;
}
