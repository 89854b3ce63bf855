import { matchPattern, routes } from '../routes';
import { remembered } from './lazy-loaded';
import { pageModules } from './page-modules';

/** The shell's code, loaded on demand like the pages (page-modules.ts), and asked for by `preloadRoute`. */
export const shellModules = {
  layout: remembered(() => import('./shell/shell-layout')),
  gated: remembered(() => import('./gated-routes')),
};

/** The public account pages (sign-up, email verification, password reset): one chunk, outside the shell. */
export const accountPages = () => import('../features/auth/account-pages');

const ignore = () => {};

/**
 * Starts loading the shell and the page at `path` now, beside the profile calls, instead of after them: the
 * route's chunks no longer wait for the session (a failure is left to the page's own load, which shows it).
 */
export function preloadRoute(path: string) {
  void shellModules.layout().catch(ignore);
  void shellModules.gated().catch(ignore);
  const key = (Object.keys(pageModules) as Array<keyof typeof pageModules>).find(
    (k) => matchPattern(routes[k].pattern, path) !== null,
  );
  if (key) void pageModules[key]().catch(ignore);
}
