import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, call, openListing, type Server } from '../routes/trade-testing';
import { freshServer, userIdOf } from '../test-support';
import { createMetrics } from './metrics';

/** A sample's value in Prometheus' text: the line `name{labels} value`, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const body = line.slice(name.length);
    const value = line.slice(line.lastIndexOf(' ') + 1);
    if (wanted.every((w) => body.includes(w))) return value === '+Inf' ? Number.POSITIVE_INFINITY : Number(value);
  }
  return undefined;
}

describe('/api/metrics', () => {
  let s: Server;
  let admin: string;
  let seller: string;
  const scrape = (token?: string) =>
    s.app.request('/api/metrics', { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    s = await freshServer({ ops: { metricsToken: 'scrape-token-of-the-test', metrics: createMetrics() } });
    admin = await s.loginAs('admin@demo.test');
    seller = await s.loginAs('seller@demo.test');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is closed to anyone but the back office and the scrape token', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('not-a-token')).status).toBe(401);
    expect((await scrape(seller)).status).toBe(403);
    expect((await scrape(admin)).status).toBe(200);
    const res = await scrape('scrape-token-of-the-test');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts a purchase by its method and observes its latency, after it happened', async () => {
    const sellerId = await userIdOf(s.db, 'seller@demo.test');
    const before = await (await scrape(admin)).text();
    const listing = await openListing(s, sellerId);
    const booking = await book(s, seller, listing, 1);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(paid.status).toBe(200);
    const text = await (await scrape(admin)).text();

    const confirmed = { method: 'sb_pay', outcome: 'confirmed' };
    expect(sample(text, 'sb_purchases_total', confirmed)).toBe(
      (sample(before, 'sb_purchases_total', confirmed) ?? 0) + 1,
    );
    const op = { operation: 'confirmBooking' };
    expect(sample(text, 'sb_http_request_duration_seconds_count', op)).toBe(
      (sample(before, 'sb_http_request_duration_seconds_count', op) ?? 0) + 1,
    );
    expect(sample(text, 'sb_http_request_duration_seconds_sum', op)).toBeGreaterThan(0);
    expect(sample(text, 'sb_http_requests_total', { operation: 'confirmBooking', status: '200' })).toBe(1);
    expect(sample(text, 'sb_http_requests_total', { operation: 'addToCart', status: '200' })).toBe(1);
    // the database's figures, read for the scrape
    expect(sample(text, 'sb_holds_open')).toBe(0);
    expect(sample(text, 'sb_deposits_waiting')).toBeGreaterThan(0);
    expect(sample(text, 'sb_database_bytes')).toBeGreaterThan(100_000);
    expect(sample(text, 'sb_payouts_waiting')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'sb_upload_bytes')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'sb_mail_queued')).toBeGreaterThanOrEqual(0);
    // Node's own, the event loop's delay among them
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    // no backup yet: an age an alert fires on
    expect(sample(text, 'sb_last_backup_age_seconds')).toBe(Number.POSITIVE_INFINITY);
    expect(sample(text, 'sb_last_backup_timestamp_seconds')).toBe(0);
  });

  it("counts a failed purchase with its reason, and the login throttle's refusals", async () => {
    // a booking the buyer cancelled cannot be paid: the confirmation answers Failed
    const buyerId = await userIdOf(s.db, 'rival@demo.test');
    const buyer = await s.loginAs('rival@demo.test');
    const listing = await openListing(s, buyerId);
    const booking = await book(s, buyer, listing, 1);
    expect((await call(s, 'POST', `/purchase/lmt-trade/bookings/${booking.booking_id}/cancel`, buyer)).status).toBe(
      200,
    );
    const failed = await call(s, 'POST', '/purchase/lmt-trade/confirmation', buyer, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect([failed.status, failed.body.data?.result]).toEqual([200, expect.objectContaining({ status: 0 })]);
    for (let i = 0; i < 6; i++) await s.json('POST', '/auth/login', { email: 'kyc@demo.test', password: `wrong-${i}` });
    const text = await (await scrape(admin)).text();
    expect(sample(text, 'sb_login_throttle_refusals_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'sb_http_requests_total', { operation: 'login', status: '429' })).toBeGreaterThanOrEqual(1);
    const reason = (failed.body.data?.result as { reason: string } | undefined)?.reason;
    expect(reason).toBe('booking_cancelled');
    expect(sample(text, 'sb_purchases_total', { method: 'sb_pay', outcome: 'booking_cancelled' })).toBe(1);
  });
});
