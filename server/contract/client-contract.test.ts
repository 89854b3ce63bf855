import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortalClient, unwrap } from '../../openapi/client';
import { freshServer } from '../test-support';

/**
 * The SPA's own typed client against the real server in one process: if the contract, the client or the
 * server drift apart, this stops compiling or fails.
 */
describe('the typed client against the server', () => {
  let server: Awaited<ReturnType<typeof freshServer>>;
  let token: string | null = null;
  let unauthorized = 0;
  const client = () =>
    createPortalClient({
      baseUrl: 'http://portal.test/api',
      fetch: async (request) => server.app.fetch(request),
      getToken: () => token,
      onUnauthorized: () => {
        unauthorized += 1;
      },
    });

  beforeAll(async () => {
    server = await freshServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('logs in and reads the profile the session machine needs', async () => {
    const api = client();
    const answer = await api.POST('/auth/login', { body: { email: 'seller@demo.test', password: 'Demo1234!' } });
    // 200 is a session; 202 would ask for a two-factor code, which the demo seller has not turned on
    const login = answer.data?.data;
    if (!login || !('token' in login)) throw new Error(`no session: ${answer.response.status}`);
    expect(login.first_name).toBe('Sam');
    token = login.token;
    const account = unwrap(await api.GET('/settings/my-account'));
    const roles = unwrap(await api.GET('/account/roles-permissions'));
    const kyc = unwrap(await api.GET('/account/kyc-status'));
    expect(account.email).toBe('seller@demo.test');
    expect(roles.user_type).toBe('sellers');
    expect(roles.permissions.filter((p) => p.is_can_access === 1)).toHaveLength(8);
    expect(kyc).toEqual({ kyc_status: 1, rejection_reason: null });
  });

  it('pages notifications and marks one viewed, as the panel does', async () => {
    const api = client();
    const counts = unwrap(await api.GET('/ui-settings/menu-notification'));
    const first = unwrap(await api.GET('/notification/history', { params: { query: { page: 1 } } }));
    expect(first.meta.current_page).toBe(1);
    expect(first.notification_list.length).toBeGreaterThan(0);
    const unread = first.notification_list.find((n) => n.viewed === 0);
    if (!unread) throw new Error('the demo seller has unread notifications on page 1');
    const marked = unwrap(await api.POST('/notification/update-notification', { body: { id: unread.id } }));
    expect(marked.unread_count).toBe(counts.unread_count - 1);
  });

  it('reads the dashboard and the sales counts', async () => {
    const api = client();
    const overview = unwrap(await api.GET('/dashboard/sales-overview', { params: { query: { currency: 'GBP' } } }));
    const sales = unwrap(await api.GET('/sales/sales-count'));
    expect(overview.currency).toBe('GBP');
    expect(sales.map((s) => s.status)).toEqual([
      'pending',
      'confirmed',
      'delivered',
      'completed',
      'cancelled',
      'replaced',
    ]);
  });

  it('answers a refused login with the envelope the login form shows', async () => {
    const api = client();
    const result = await api.POST('/auth/login', { body: { email: 'seller@demo.test', password: 'nope' } });
    expect(result.response.status).toBe(401);
    expect(() => unwrap(result as { error?: unknown; response: Response })).toThrow('Incorrect email or password.');
  });

  it('calls onUnauthorized when a call that carried a token is refused, and not otherwise', async () => {
    const api = client();
    const before = unauthorized;
    await api.POST('/auth/logout');
    expect(unauthorized).toBe(before);
    const after = await api.GET('/settings/my-account');
    expect(after.response.status).toBe(401);
    expect(unauthorized).toBe(before + 1);
    token = null;
    await api.GET('/settings/my-account');
    expect(unauthorized).toBe(before + 1);
  });
});
