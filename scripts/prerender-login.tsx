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
const index = readFileSync(join(dist, 'index.html'), 'utf8');
const root = '<div id="root"></div>';
if (!index.includes(root) || !/<title>[^<]*<\/title>/.test(index)) throw new Error(`${dist}/index.html: no ${root}`);
const page = index
  .replace(root, `<div id="root">${form}</div>`)
  .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(documentTitle(routeTitle(routes.login, {})))}</title>`);
writeFileSync(join(dist, LOGIN_PAGE_FILE), page);
console.info(`prerender-login: ${dist}/${LOGIN_PAGE_FILE} (${page.length} bytes, the form ${form.length})`);
