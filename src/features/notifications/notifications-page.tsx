import { css } from 'styled-system/css';
import { Feed } from './feed-actor';
import { FeedList, FeedTabs } from './feed-view';

/** /notifications/home: the panel's lists on a page of their own. */
export default function NotificationsPage() {
  return (
    <Feed.Provider options={{ input: { tab: 'notifications' } }}>
      <section className={css({ bg: 'bg', borderRadius: 'lg', p: '4', maxWidth: '760px' })}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'bold', mb: '2' })}>Notifications</h2>
        <FeedTabs idPrefix="page" />
        <FeedList idPrefix="page" maxHeight="calc(100dvh - 220px)" />
      </section>
    </Feed.Provider>
  );
}
