import type { PermissionName } from '../../machines/session.machine';
import { firstSegment, matchRoute, type Route, type RouteMatch, routes, titleOf } from '../routes';

export { firstSegment };

/** First path segments anyone logged in may open (spec section 2). */
export const ALWAYS_ALLOWED = [
  'login',
  'signup',
  'reset-password',
  'verify-email',
  'kyc-verification',
  'dashboard',
  'settings',
] as const;

/** The first path segments each permission opens: those of the registry's routes that need it. */
export const SEGMENTS_BY_PERMISSION: Readonly<Partial<Record<PermissionName, readonly string[]>>> = (
  Object.values(routes) as Array<Route<string, unknown>>
).reduce<Partial<Record<PermissionName, string[]>>>((map, r) => {
  if (r.access === 'public' || r.access === 'always') return map;
  const segment = firstSegment(r.pattern);
  const known = map[r.access] ?? [];
  map[r.access] = known.includes(segment) ? known : [...known, segment];
  return map;
}, {});

export function allowedSegments(permissions: readonly PermissionName[]): Set<string> {
  return new Set<string>([...ALWAYS_ALLOWED, ...permissions.flatMap((p) => SEGMENTS_BY_PERMISSION[p] ?? [])]);
}

/** The spec's gate: a page opens when its first path segment is always allowed or derived from a permission. */
export function canOpen(path: string, permissions: readonly PermissionName[]): boolean {
  return allowedSegments(permissions).has(firstSegment(path));
}

/** What a logged-in user gets at a path: the page, Access Denied, or Page not found when no page is there. */
export type PageAccess =
  | { kind: 'open'; match: RouteMatch }
  | { kind: 'denied'; match: RouteMatch }
  | { kind: 'notFound' };

export function pageAccess(path: string, permissions: readonly PermissionName[]): PageAccess {
  const match = matchRoute(path);
  if (!match) return { kind: 'notFound' };
  return canOpen(path, permissions) ? { kind: 'open', match } : { kind: 'denied', match };
}

export const NOT_FOUND_TITLE = 'Page not found';

/** The page's name (its h1 and document title) at a path: the route's title, or 'Page not found'. */
export function pageTitle(path: string): string {
  const match = matchRoute(path);
  return match ? titleOf(match) : NOT_FOUND_TITLE;
}

/**
 * The header's title for a path (spec section 2, Header): the listing pages' own titles, else 'Welcome' and
 * the first name.
 */
export function headerTitle(path: string, firstName: string): string {
  const match = matchRoute(path);
  if (match?.route.header === 'title') return titleOf(match);
  return firstName ? `Welcome ${firstName}` : 'Welcome';
}
