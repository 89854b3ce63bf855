// `node --import tsx scripts/prerender-login.tsx <dist>`, after `vite build`: writes `<dist>/.login.html`, the
// app's index.html with the login form already in #root, which the server sends for /login to a browser with no
// session cookie (server/http/static.ts). The form shows as the HTML arrives, before the app's script has loaded
// and run: /login's first and largest paint no longer wait for the script. The app renders its own form in its
// place (createRoot, no hydration) with the same classes, so nothing moves; what was typed meanwhile goes on
// (src/features/auth/typed-before-start.ts), and Log in stays disabled until then.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { Router } from 'wouter';
import { LOGIN_PAGE_FILE } from '../server/http/static';
import { LoginFormView } from '../src/features/auth/login-form-view';
import { documentTitle, routes, routeTitle } from '../src/routes';

const dist = process.argv[2];
if (!dist) throw new Error('usage: prerender-login.tsx <dist>');

const form = renderToStaticMarkup(
  <Router ssrPath={routes.login.pattern}>
    <LoginFormView values={{ email: '', password: '' }} errors={{}} submitting={false} message={null} prerendered />
  </Router>,
);
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
// Should the app's script never arrive (a dropped connection), Log in would stay disabled without a word: this
// note shows after 10 s unless the app has taken #root over by then (its render replaces the note with the
// rest). CSS only: the page's policy runs no inline script, and the note adds nothing to /login's JavaScript.
const STALLED_MESSAGE = 'This page is taking long to load. Check your connection, then reload the page.';
const stalled = `<p class="prerender-stalled" role="status">${escapeHtml(STALLED_MESSAGE)}</p>`;
// Without JavaScript at all, the page's own <noscript> says what is wrong in the same place, at once, and the
// note (which would send the reader to reload) is not shown.
const NOSCRIPT = '<noscript>SB Portal needs JavaScript to run.</noscript>';
const noscript =
  '<noscript><p class="prerender-stalled prerender-noscript">SB Portal needs JavaScript to run.</p></noscript>';
const stalledStyle =
  '<style>.prerender-stalled{visibility:hidden;animation:prerender-stalled 0s 10s forwards;position:fixed;' +
  'left:1rem;right:1rem;bottom:1rem;max-width:24rem;margin:0 auto;padding:.75rem 1rem;border:1px solid #d0d5dd;' +
  'border-radius:8px;background:#fff;color:#1d2939;font:14px/1.4 system-ui,sans-serif;text-align:center}' +
  '@keyframes prerender-stalled{to{visibility:visible}}.prerender-noscript{visibility:visible;animation:none}' +
  '@media (scripting:none){.prerender-stalled:not(.prerender-noscript){display:none}}</style>';
const index = readFileSync(join(dist, 'index.html'), 'utf8');
const root = '<div id="root"></div>';
if (!index.includes(root) || !/<title>[^<]*<\/title>/.test(index)) throw new Error(`${dist}/index.html: no ${root}`);
if (!index.includes('</head>') || !index.includes(NOSCRIPT))
  throw new Error(`${dist}/index.html: no </head> or ${NOSCRIPT}`);
const page = index
  .replace(root, `<div id="root">${form}${stalled}</div>`)
  .replace('</head>', `${stalledStyle}</head>`)
  .replace(NOSCRIPT, noscript)
  .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(documentTitle(routeTitle(routes.login, {})))}</title>`);
writeFileSync(join(dist, LOGIN_PAGE_FILE), page);
console.info(`prerender-login: ${dist}/${LOGIN_PAGE_FILE} (${page.length} bytes, the form ${form.length})`);
