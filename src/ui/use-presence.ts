import { useEffect, useState } from 'react';

export type PresencePhase = 'hidden' | 'open' | 'closing';

/**
 * Mounting with a delay and unmounting after an exit animation: `open` turning true mounts after
 * `enterDelay` ms; turning false keeps the element for `exitDuration` ms in phase 'closing', then unmounts.
 */
export function usePresence(open: boolean, { enterDelay = 0, exitDuration = 0 } = {}) {
  const [phase, setPhase] = useState<PresencePhase>(open && enterDelay === 0 ? 'open' : 'hidden');
  useEffect(() => {
    if (open) {
      const timer = setTimeout(() => setPhase('open'), enterDelay);
      return () => clearTimeout(timer);
    }
    setPhase((p) => (p === 'hidden' ? 'hidden' : 'closing'));
    const timer = setTimeout(() => setPhase('hidden'), exitDuration);
    return () => clearTimeout(timer);
  }, [open, enterDelay, exitDuration]);
  return { mounted: phase !== 'hidden', phase };
}
