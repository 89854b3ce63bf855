import { useEffect, useRef } from 'react';

// the open layers (drawer, modal, date picker...) in opening order: Escape closes only the top one
const layers: Array<{ close: () => void }> = [];

function onKeyDown(event: KeyboardEvent) {
  if (event.key !== 'Escape' || event.defaultPrevented) return;
  const top = layers.at(-1);
  if (!top) return;
  event.preventDefault();
  top.close();
}

/**
 * While `active`, Escape anywhere on the page calls `onEscape`, unless a layer opened later is still open
 * or something nearer the focus (an open dropdown list) already took the key with `preventDefault`.
 */
export function useEscapeKey(active: boolean, onEscape: () => void) {
  const handler = useRef(onEscape);
  useEffect(() => {
    handler.current = onEscape;
  });
  useEffect(() => {
    if (!active) return;
    const layer = { close: () => handler.current() };
    layers.push(layer);
    if (layers.length === 1) document.addEventListener('keydown', onKeyDown);
    return () => {
      layers.splice(layers.indexOf(layer), 1);
      if (layers.length === 0) document.removeEventListener('keydown', onKeyDown);
    };
  }, [active]);
}
