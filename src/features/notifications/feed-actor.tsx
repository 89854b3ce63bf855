import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { notificationsMachine, type Tab } from '../../../machines/notifications.machine';
import { useViewActor } from '../../app/view-actor';

type FeedRef = ActorRefFrom<typeof notificationsMachine>;
const FeedContext = createContext<FeedRef | null>(null);

/**
 * One feed per panel or page, in the app's actor system (so opening a notification reaches the menu
 * counts): opening either starts again at page 1. `viewKey` tells the panel's feed from the page's.
 */
export function FeedProvider({ viewKey, tab, children }: { viewKey: string; tab: Tab; children: ReactNode }) {
  const feed = useViewActor(notificationsMachine, viewKey, { filters: { tab } });
  return feed ? <FeedContext.Provider value={feed}>{children}</FeedContext.Provider> : null;
}

export function useFeed(): FeedRef {
  const feed = useContext(FeedContext);
  if (!feed) throw new Error('useFeed needs a FeedProvider above it');
  return feed;
}

export function useFeedSelector<T>(selector: (snapshot: SnapshotFrom<typeof notificationsMachine>) => T) {
  return useSelector(useFeed(), selector);
}
