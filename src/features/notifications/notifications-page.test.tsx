import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStore } from '../../../machines/testing/fake-store';
import { NotifyBridge } from '../../app/notify-bridge';
import { Session } from '../../app/session';
import { MenuCountsActor, useMenuCounts } from '../../app/shell/shell-actors';
import Toasts from '../../app/toasts';
import { type FakeCall, fakeApi, reply } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import NotificationsPage from './notifications-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const WAIT = { timeout: 5000 };

const notification = (id: number, viewed: 0 | 1, link: string | null = null) => ({
  id,
  name: 'new_order',
  description: `Order SB-${id} placed`,
  viewed,
  created_at: '2026-11-20T10:00:00Z',
  link,
});
const meta = (page: number, last: number, total: number) => ({
  current_page: page,
  last_page: last,
  per_page: 10,
  total,
});

/** A logged-in seller with the notification permission, and the menu's counts. */
function loggedInSeller() {
  fakeProfile({ account: { id: 1 }, permissions: ['notification'] });
  fakeApi.on('GET /ui-settings/menu-notification', () => ({ notification: 3, activity: 0, unread_count: 2 }));
}

/** The menu's unread badge, as the side menu reads it from the actor system. */
function UnreadBadge() {
  const unread = useMenuCounts((s) => s?.context.notifications?.unread_count);
  return <output aria-label="Unread">{unread ?? ''}</output>;
}

function LoggedIn({ children }: { children: ReactNode }) {
  return Session.useSelector((s) => s.matches('loggedIn')) ? children : null;
}

function renderPage() {
  const store = fakeStore({ token: 'stored', userToken: 'u1', issuedAt: NOW - 1000 });
  return render(
    <Session.Provider options={{ input: { store: store.store, now: () => NOW } }}>
      <NotifyBridge toasts={Toasts} />
      <LoggedIn>
        <MenuCountsActor />
        <UnreadBadge />
        <NotificationsPage />
      </LoggedIn>
    </Session.Provider>,
  );
}

const placeholders = (container: HTMLElement) => container.querySelectorAll('li[aria-hidden="true"]').length;
const pageOf = (call: FakeCall) => Number(call.query?.page);

describe('the notifications page', () => {
  beforeEach(() => {
    fakeApi.reset();
    loggedInSeller();
  });
  afterEach(() => fakeApi.reset());

  it('an actionable notification is a link to its page: opening it marks it read and goes there; another site never', async () => {
    window.history.replaceState(null, '', '/notifications/home');
    const marked: number[] = [];
    fakeApi.on('GET /notification/history', () => ({
      notification_list: [
        notification(8, 0, '/sales/pending?order=42'),
        notification(7, 0, '//evil.example/steal'),
        notification(6, 1),
      ],
      unread_count: 2,
      meta: meta(1, 1, 3),
    }));
    fakeApi.on('POST /notification/update-notification', (call) => {
      marked.push((call.body as { id: number }).id);
      return { id: (call.body as { id: number }).id, viewed: 1, unread_count: 1 };
    });
    const user = userEvent.setup();
    renderPage();
    const link = await screen.findByRole('link', { name: /Order SB-8 placed/ }, WAIT);
    expect(link).toHaveAttribute('href', '/sales/pending?order=42');
    // a link that is not a path of this portal is not followed: the row stays a button
    expect(screen.getByRole('button', { name: /Order SB-7 placed/ })).toBeVisible();
    expect(screen.queryByRole('link', { name: /Order SB-7 placed/ })).toBeNull();
    await user.click(link);
    await waitFor(
      () => expect(`${window.location.pathname}${window.location.search}`).toBe('/sales/pending?order=42'),
      WAIT,
    );
    await waitFor(() => expect(marked).toEqual([8]), WAIT);
    window.history.replaceState(null, '', '/');
  });

  it('shows 5 placeholders, then the notifications; opening an unread one marks it read and lowers the menu badge', async () => {
    let answer: (v: unknown) => void = () => {};
    fakeApi.on('GET /notification/history', () => new Promise((resolve) => (answer = resolve)));
    fakeApi.on('POST /notification/update-notification', (call) => ({
      id: (call.body as { id: number }).id,
      viewed: 1,
      unread_count: 1,
    }));
    const user = userEvent.setup();
    const { container } = renderPage();
    await waitFor(() => expect(placeholders(container)).toBe(5), WAIT);
    expect(screen.getByRole('tab', { name: /Notifications/ })).toHaveAttribute('aria-selected', 'true');
    answer({
      notification_list: [notification(7, 0), notification(6, 1), notification(5, 0)],
      unread_count: 2,
      meta: meta(1, 1, 3),
    });
    const unread = await screen.findByRole('button', { name: /Order SB-7 placed/ }, WAIT);
    expect(placeholders(container)).toBe(0);
    expect(within(unread).getByText('New')).toBeVisible();
    expect(screen.getByRole('tab', { name: /Notifications\s*3/ })).toBeVisible();
    expect(await screen.findByRole('status', { name: 'Unread' })).toHaveTextContent('2');

    await user.click(unread);
    // read at once, then the server's count on the badge: no view passed the count along
    expect(within(unread).queryByText('New')).toBeNull();
    await waitFor(() => expect(screen.getByRole('status', { name: 'Unread' })).toHaveTextContent('1'), WAIT);
    expect(fakeApi.calls.filter((c) => c.path === '/notification/update-notification').map((c) => c.body)).toEqual([
      { id: 7 },
    ]);
    // a read one asks the server nothing
    await user.click(screen.getByRole('button', { name: /Order SB-6 placed/ }));
    expect(fakeApi.calls.filter((c) => c.path === '/notification/update-notification')).toHaveLength(1);
    expect(screen.getByText('All notifications loaded')).toBeVisible();
  });

  it('a page that does not fill the list loads the next one by itself, from page 1 of each tab', async () => {
    fakeApi.on('GET /notification/history', (call) =>
      pageOf(call) === 1
        ? { notification_list: [notification(2, 1)], unread_count: 0, meta: meta(1, 2, 2) }
        : { notification_list: [notification(1, 1)], unread_count: 0, meta: meta(2, 2, 2) },
    );
    fakeApi.on('GET /notification/activity-history', () => ({
      activity_list: [],
      activity_count: 0,
      meta: meta(1, 1, 0),
    }));
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('All notifications loaded', {}, WAIT)).toBeVisible();
    expect(screen.getByText('Order SB-2 placed')).toBeVisible();
    expect(screen.getByText('Order SB-1 placed')).toBeVisible();
    expect(fakeApi.calls.filter((c) => c.path === '/notification/history').map(pageOf)).toEqual([1, 2]);

    await user.click(screen.getByRole('tab', { name: /Activity log/ }));
    expect(await screen.findByText('No recent activity', {}, WAIT)).toBeVisible();
    expect(screen.queryByText('Order SB-2 placed')).toBeNull();
    expect(fakeApi.calls.filter((c) => c.path === '/notification/activity-history').map(pageOf)).toEqual([1]);
  });

  it("says 'No notifications found' when there are none", async () => {
    fakeApi.on('GET /notification/history', () => ({ notification_list: [], unread_count: 0, meta: meta(1, 1, 0) }));
    renderPage();
    expect(await screen.findByText('No notifications found', {}, WAIT)).toBeVisible();
  });

  it("toasts 'Failed to load notifications', shows it with Retry, and Retry loads the page", async () => {
    let fail = true;
    fakeApi.on('GET /notification/history', () =>
      fail
        ? reply(500, { success: false, message: 'An unexpected error occurred. Please try again later.' })
        : { notification_list: [notification(3, 0)], unread_count: 1, meta: meta(1, 1, 1) },
    );
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert', {}, WAIT);
    expect(alert).toHaveTextContent('Failed to load notifications');
    // the toast, through the one notify bridge
    expect(await screen.findByText('Failed to load notifications', { selector: '[data-title]' }, WAIT)).toBeVisible();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Order SB-3 placed', {}, WAIT)).toBeVisible();
  });

  it("shows 'Failed to load activity' with Retry and logs it, without a toast", async () => {
    fakeApi.on('GET /notification/history', () => ({ notification_list: [], unread_count: 0, meta: meta(1, 1, 0) }));
    fakeApi.on('GET /notification/activity-history', () => reply(500, { success: false, message: 'down' }));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('tab', { name: /Activity log/ }, WAIT));
    const alert = await screen.findByRole('alert', {}, WAIT);
    expect(alert).toHaveTextContent('Failed to load activity');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeVisible();
    expect(logged).toHaveBeenCalledWith('Failed to load activity', expect.any(Error));
    expect(screen.queryByText('Failed to load activity', { selector: '[data-title]' })).toBeNull();
    logged.mockRestore();
  });
});
