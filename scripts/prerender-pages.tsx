// `node --import tsx scripts/prerender-pages.tsx <dist>`, after `vite build`, writes two pages beside index.html
// that the server sends instead of it (server/http/static.ts):
//
// - `.login.html`: index.html with the login form already in #root, sent for /login to a browser with no session
//   cookie. The form shows as the HTML arrives, before the app's script has loaded and run: /login's first and
//   largest paint no longer wait for the script. The app renders its own form in its place (createRoot, no
//   hydration) with the same classes, so nothing moves; what was typed meanwhile goes on
//   (src/features/auth/typed-before-start.ts), and Log in stays disabled until then.
// - `.session.html`: index.html with the app's first loader (FullPageLoader) in #root, sent for every route opened
//   with a session cookie, so that such a page shows 'Loading...' as soon as its HTML and style sheet have come
//   instead of a blank page while its scripts load and run. The app renders the same loader over it, then the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { Router } from 'wouter';
import { LOGIN_PAGE_FILE, SESSION_PAGE_FILE } from '../server/http/static';
import { LoginFormView } from '../src/features/auth/login-form-view';
import { documentTitle, routes, routeTitle } from '../src/routes';
import { FullPageLoader } from '../src/ui/full-page-loader';

const dist = process.argv[2];
if (!dist) throw new Error('usage: prerender-pages.tsx <dist>');

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
console.info(`prerender-pages: ${dist}/${LOGIN_PAGE_FILE} (${page.length} bytes, the form ${form.length})`);

// A page opened with a session: the loader the app shows first, in the HTML, so that the page is not blank while
// the app's script loads and runs (the app renders the same loader over it, then the page)
const loader = renderToStaticMarkup(<FullPageLoader />);
const sessionPage = index
  .replace(root, `<div id="root">${loader}${stalled}</div>`)
  .replace('</head>', `${stalledStyle}</head>`)
  .replace(NOSCRIPT, noscript);
writeFileSync(join(dist, SESSION_PAGE_FILE), sessionPage);
console.info(
  `prerender-pages: ${dist}/${SESSION_PAGE_FILE} (${sessionPage.length} bytes, the loader ${loader.length})`,
);
