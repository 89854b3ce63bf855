import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSettings } from '../main';
import { freshServer } from '../test-support';
import { outboxMailer } from './outbox';

describe('the development mail viewer', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let off: Awaited<ReturnType<typeof freshServer>>;
  beforeAll(async () => {
    s = await freshServer({ mailViewer: true, appUrl: 'http://127.0.0.1:4178' });
    off = await freshServer();
  });
  afterAll(async () => {
    await s?.close();
    await off?.close();
  });

  it('shows the outbox with its links clickable and hostile text escaped', async () => {
    const res = await s.json('POST', '/auth/register', {
      first_name: '<script>alert(1)</script>',
      last_name: 'X',
      email: 'viewer@example.test',
      password: 'Viewer-1234',
      password_confirmation: 'Viewer-1234',
    });
    expect(res.status).toBe(200);
    const page = await s.app.request('/dev/mail?to=viewer@example.test');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Verify your email address for SB Portal');
    expect(html).toMatch(/<a href="http:\/\/127\.0\.0\.1:4178\/verify-email\/token\/[A-Za-z0-9_-]{43}">/);
    // the mail carries no name the person typed; hostile text in any mail shows escaped
    expect(html).not.toContain('alert(1)');
    await outboxMailer(s.clock).deliver(s.db, {
      to: 'viewer@example.test',
      subject: '<script>alert(1)</script>',
      text: 'Hello <img src=x onerror=alert(2)>',
    });
    const hostile = await (await s.app.request('/dev/mail?to=viewer@example.test')).text();
    expect(hostile).not.toContain('<script>alert(1)</script>');
    expect(hostile).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(hostile).toContain('Hello &lt;img src=x onerror=alert(2)&gt;');
  });

  it("lists a message's attachments and downloads each (a scheduled report's XLSX)", async () => {
    const content = Buffer.from('PK\u0003\u0004 not really a workbook');
    await outboxMailer(s.clock).deliver(s.db, {
      to: 'files@example.test',
      subject: 'Your weekly report',
      text: 'Attached.',
      attachments: [{ filename: 'report "1".xlsx', contentType: 'application/vnd.ms-excel', content }],
    });
    const html = await (await s.app.request('/dev/mail?to=files@example.test')).text();
    const link = /<a href="(\/dev\/mail\/attachments\/\d+)" download="report &quot;1&quot;.xlsx">/.exec(html);
    expect(link, html).not.toBeNull();
    const file = await s.app.request(link?.[1] ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/vnd.ms-excel');
    // the quotes cannot stand in filename="..." (an ASCII stand-in); filename* (RFC 8187) keeps the name itself
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="report _1_.xlsx"; filename*=UTF-8''report%20%221%22.xlsx`,
    );
    expect(Buffer.from(await file.arrayBuffer())).toEqual(content);
    expect((await s.app.request('/dev/mail/attachments/999999')).status).toBe(404);
    expect((await off.app.request(link?.[1] ?? '')).status).toBe(404);
  });

  it('is not served unless asked for', async () => {
    const page = await off.app.request('/dev/mail');
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('Mail outbox');
  });

  it('is on only for the outbox and, unless forced, a server on this machine alone', () => {
    expect(mailSettings({}, '127.0.0.1', 8080)).toEqual({ appUrl: 'http://127.0.0.1:8080', mailViewer: true });
    expect(mailSettings({}, '0.0.0.0', 8080)).toEqual({ appUrl: 'http://localhost:8080', mailViewer: false });
    expect(mailSettings({ MAIL_VIEWER: 'on' }, '0.0.0.0', 8080).mailViewer).toBe(true);
    expect(mailSettings({ MAIL_VIEWER: 'off' }, '127.0.0.1', 8080).mailViewer).toBe(false);
    expect(mailSettings({ SMTP_URL: 'smtp://mail.test:25', MAIL_VIEWER: 'on' }, '127.0.0.1', 1).mailViewer).toBe(false);
    expect(mailSettings({ APP_URL: 'https://portal.example' }, '127.0.0.1', 1).appUrl).toBe('https://portal.example');
  });
});
