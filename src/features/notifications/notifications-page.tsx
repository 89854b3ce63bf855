import { css } from 'styled-system/css';
import { FeedProvider } from './feed-actor';
import { FeedList, FeedTabs } from './feed-view';

/** /notifications/home: the panel's lists on a page of their own (the page's title is the shell's h1). */
export default function NotificationsPage() {
  return (
    <FeedProvider viewKey="notifications-page" tab="notifications">
      <section aria-label="Notifications and activity" className={css({ bg: 'bg', borderRadius: 'lg', p: '4' })}>
        <FeedTabs idPrefix="page" />
        <FeedList idPrefix="page" maxHeight="calc(100dvh - 220px)" />
      </section>
    </FeedProvider>
  );
}
