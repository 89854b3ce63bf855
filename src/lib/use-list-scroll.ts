import { useSelector } from '@xstate/react';
import { type UIEvent, useEffect, useRef } from 'react';
import type { ActorRef, EventObject, Snapshot } from 'xstate';

/** What the list machine (machines/list.machine.ts) hears from an infinitely scrolling view. */
type ScrollEvent =
  | { type: 'list.scrolled'; distanceFromBottom: number }
  | { type: 'list.measured'; fillsView: boolean };
type ListSnapshot = Snapshot<unknown> & { hasTag(tag: string): boolean };

/**
 * Infinite scroll for a list machine: put `ref` and `onScroll` on the scrolling box. It reports each scroll's
 * distance from the bottom, and, when the machine asks (its `measure` tag), whether the items fill the box.
 */
export function useListScroll<TEvent extends EventObject>(list: ActorRef<ListSnapshot, TEvent | ScrollEvent>) {
  const ref = useRef<HTMLDivElement>(null);
  const measuring = useSelector(list, (s) => s.hasTag('measure'));
  useEffect(() => {
    const el = ref.current;
    if (measuring && el) list.send({ type: 'list.measured', fillsView: el.scrollHeight > el.clientHeight });
  }, [measuring, list]);
  const onScroll = (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    list.send({ type: 'list.scrolled', distanceFromBottom: el.scrollHeight - el.scrollTop - el.clientHeight });
  };
  return { ref, onScroll };
}
