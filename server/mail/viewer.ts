import type { Context } from 'hono';
import type { Db } from '../db/database';
import { cleanFileName, contentDisposition } from '../http/file-names';
import { readOutbox, readOutboxAttachment, readOutboxAttachments } from './outbox';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** Text with its http(s) links made clickable; everything else escaped. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

/**
 * The development mail viewer (/dev/mail): the outbox's newest 50 messages, or those to `?to=<address>`, as a
 * plain page with the links clickable. Served only while mail goes to the outbox and the server is reachable
 * from this machine alone (server/main.ts decides): anyone who can read it can follow anyone's reset link.
 */
export async function mailViewer(c: Context, db: Db): Promise<Response> {
  const to = c.req.query('to')?.slice(0, 254);
  const mails = await readOutbox(db, { to, limit: 50 });
  const files = await readOutboxAttachments(
    db,
    mails.map((m) => m.id),
  );
  const filesOf = (id: number) => {
    const mine = files.filter((f) => f.mail_id === id);
    if (mine.length === 0) return '';
    const links = mine.map(
      (f) =>
        `<li><a href="/dev/mail/attachments/${f.id}" download="${escapeHtml(f.filename)}">${escapeHtml(f.filename)}</a></li>`,
    );
    return `\n  <p class="meta">Attachments:</p>\n  <ul>${links.join('')}</ul>`;
  };
  const items = mails
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to_address)}</strong> · ${escapeHtml(m.created_at)}</p>
  <pre>${linkify(m.body)}</pre>${filesOf(m.id)}
</article>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mail outbox · SB Portal</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 60rem; }
article { border: 1px solid #ccc; border-radius: 8px; padding: 0 1rem; margin: 1rem 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; }
.meta { color: #555; }
</style>
</head>
<body>
<h1>Mail outbox</h1>
<p>Mail the portal would have sent. No SMTP server is configured (set <code>SMTP_URL</code> to send real mail);
this page exists only in that case and only while the server listens on this machine alone.</p>
<form method="get"><label>To <input type="email" name="to" value="${escapeHtml(to ?? '')}"></label> <button>Filter</button></form>
${items || '<p>No mail yet.</p>'}
</body>
</html>`;
  return c.html(html, 200, { 'Cache-Control': 'no-store' });
}

/** One file of an outbox message, downloaded from the viewer (served under the same conditions as the viewer). */
export async function mailAttachment(c: Context, db: Db): Promise<Response> {
  const id = Number(c.req.param('id'));
  const file = Number.isSafeInteger(id) && id > 0 ? await readOutboxAttachment(db, id) : undefined;
  if (!file) return c.text('No such attachment.', 404, { 'Cache-Control': 'no-store' });
  return new Response(new Uint8Array(file.content), {
    headers: {
      'Content-Type': file.mime,
      // RFC 6266 with RFC 8187's filename* for a name beyond ASCII ('Müller-Rechnung.pdf' stays itself)
      'Content-Disposition': contentDisposition(cleanFileName(file.filename) || 'attachment'),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
