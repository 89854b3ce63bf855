import { lazy, Suspense, useEffect } from 'react';
import { Session } from './session';

export interface Notice {
  level: 'error' | 'success' | 'info';
  message: string;
}

/**
 * Machines announce; this turns their `notify` events into toasts. The toast library loads after the
 * first paint (it is not needed to show /login), so notices wait in a queue until it is there.
 */
const queue: Notice[] = [];
let deliver: ((notice: Notice) => void) | null = null;

export function notify(notice: Notice) {
  if (deliver) deliver(notice);
  else queue.push(notice);
}

export function attachToasts(show: (notice: Notice) => void) {
  deliver = show;
  for (const notice of queue.splice(0)) show(notice);
  return () => {
    deliver = null;
  };
}

const Toasts = lazy(() => import('./toasts'));

export function NotifyBridge() {
  const session = Session.useActorRef();
  useEffect(() => {
    const sub = session.on('notify', ({ level, message }) => notify({ level, message }));
    return () => sub.unsubscribe();
  }, [session]);
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}
