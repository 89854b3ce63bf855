import { type ComponentType, Suspense, useEffect, useState } from 'react';
import type { AnyActorRef } from 'xstate';
import type { NotifyEvent } from '../../machines/notify';
import { LoadBoundary } from './load-boundary';
import { Session } from './session';

export type Notice = Omit<NotifyEvent, 'type'>;

/**
 * Machines announce; this turns their `notify` events into toasts. The toast library loads with the first
 * notice (a page that has nothing to say never fetches it: /login stays within its budget), so notices wait
 * in a queue until it is there.
 */
const queue: Notice[] = [];
let deliver: ((notice: Notice) => void) | null = null;
let wake: (() => void) | null = null;

export function notify(notice: Notice) {
  if (deliver) deliver(notice);
  else {
    queue.push(notice);
    wake?.();
  }
}

export function attachToasts(show: (notice: Notice) => void) {
  deliver = show;
  for (const notice of queue.splice(0)) show(notice);
  return () => {
    deliver = null;
  };
}

const toNotice = (event: NotifyEvent) => notify({ level: event.level, message: event.message });

/** Toasts for the `notify` events of one actor that is not in the app's actor system (a page's own actor). */
export function useNotify(actor: AnyActorRef | undefined) {
  useEffect(() => {
    if (!actor) return;
    const sub = actor.on('notify', toNotice);
    return () => sub.unsubscribe();
  }, [actor]);
}

/**
 * The one bridge: it hears the session and every view's actor in the app's actor system (`useViewActor`),
 * so no view subscribes to toasts itself. `toasts` shows them (toasts.tsx, which the app loads lazily: it is
 * given, not imported, as it takes its notices from here).
 */
export function NotifyBridge({ toasts: Toasts }: { toasts: ComponentType }) {
  useNotify(Session.useActorRef());
  const views = Session.useSelector((s) => s.context.views);
  useEffect(() => {
    const subs = Object.values(views).map((view) => view.on('notify', toNotice));
    return () => {
      for (const sub of subs) sub.unsubscribe();
    };
  }, [views]);
  // the toasts' code is asked for when the first notice comes
  const [wanted, setWanted] = useState(queue.length > 0);
  useEffect(() => {
    if (queue.length > 0) setWanted(true);
    wake = () => setWanted(true);
    return () => {
      wake = null;
    };
  }, []);
  if (!wanted) return null;
  // without its chunk there are no toasts, and the page goes on
  return (
    <LoadBoundary fallback={() => null}>
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
    </LoadBoundary>
  );
}
