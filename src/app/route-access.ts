import type { PermissionName } from '../../machines/session.machine';
import {
  type MenuEntry,
  matchPattern,
  pathPart,
  type Route,
  type RouteKey,
  type RouteParams,
  routes,
  routeTitle,
} from '../routes';

// Reading the route registry (src/routes.ts): which page a path is, its title, the menu, and the gates. Kept
// apart from the registry so that /login, which needs only hrefs and titles, does not load it.

/** A path matched against the registry: which page it is and its parameters. */
export interface RouteMatch<K extends RouteKey = RouteKey> {
  key: K;
  route: Route<string, RouteParams<K>>;
  params: RouteParams<K>;
}

/** The page at `path` (query and hash ignored), or null when no page has this address. */
export function matchRoute(path: string): RouteMatch | null {
  for (const [key, candidate] of Object.entries(routes) as Array<[RouteKey, Route<string, unknown>]>) {
    const raw = matchPattern(candidate.pattern, path);
    if (!raw) continue;
    const params = candidate.parse ? (candidate.parse as (raw: unknown) => unknown)(raw) : raw;
    if (params === null) return null;
    // the registry pairs each key with its own route and parameters; TypeScript cannot follow the loop
    return { key, route: candidate, params } as unknown as RouteMatch;
  }
  return null;
}

/** The name of a matched page. */
export const titleOf = (match: RouteMatch): string => routeTitle(match.route, match.params);

/** The menu's entries in order, each with its route's key and, for a page without parameters, its href. */
export const menuEntries: ReadonlyArray<MenuEntry & { key: RouteKey; to: string | null }> = (
  Object.entries(routes) as Array<[RouteKey, Route<string, unknown>]>
)
  .flatMap(([key, r]) => (r.menu ? [{ ...r.menu, key, to: r.pattern.includes(':') ? null : r.href({}) }] : []))
  .sort((a, b) => a.order - b.order);

/**
 * Whether the side menu shows an entry: a seller sees the entries its permissions allow; the back office's
 * operator sees its own (adminOnly) entries and its account, not the seller's workbench.
 */
export function shownInMenu(entry: MenuEntry, permissions: readonly PermissionName[], isAdmin: boolean): boolean {
  if (!permissions.includes(entry.permission)) return false;
  return isAdmin ? entry.adminOnly === true || entry.kind === 'account' : !entry.adminOnly;
}

/** The first segment of a path: what the spec's gating reads ('sales' for /sales/pending). */
export function firstSegment(path: string): string {
  return (
    pathPart(path)
      .split('/')
      .find((part) => part.length > 0) ?? ''
  );
}

/** First path segments anyone logged in may open (spec section 2, and the accessibility statement). */
export const ALWAYS_ALLOWED = [
  'login',
  'accessibility',
  'signup',
  'reset-password',
  'verify-email',
  'kyc-verification',
  'dashboard',
  'settings',
] as const;

/**
 * The first path segments each permission opens: those of the registry's routes that need it; a route gated by
 * its path (`gate: 'path'`) opens that path and what lies under it instead ('reports/wallet').
 */
export const SEGMENTS_BY_PERMISSION: Readonly<Partial<Record<PermissionName, readonly string[]>>> = (
  Object.values(routes) as Array<Route<string, unknown>>
).reduce<Partial<Record<PermissionName, string[]>>>((map, r) => {
  if (r.access === 'public' || r.access === 'always' || r.access === 'admin') return map;
  // a page of an always-open segment with a permission of its own opens nothing more (pageAccess checks it)
  if ((ALWAYS_ALLOWED as readonly string[]).includes(firstSegment(r.pattern))) return map;
  const segment = r.gate === 'path' ? pathPart(r.pattern).replace(/^\/+/, '') : firstSegment(r.pattern);
  const known = map[r.access] ?? [];
  map[r.access] = known.includes(segment) ? known : [...known, segment];
  return map;
}, {});

/** The first path segments of the back office's pages: only admin accounts open them. */
export const ADMIN_SEGMENTS: readonly string[] = [
  ...new Set(
    (Object.values(routes) as Array<Route<string, unknown>>)
      .filter((r) => r.access === 'admin')
      .map((r) => firstSegment(r.pattern)),
  ),
];

/** The back-office segments anyone logged in opens in development and e2e builds (the flow viewer). */
export const DEV_OPEN_SEGMENTS: readonly string[] = [
  ...new Set(
    (Object.values(routes) as Array<Route<string, unknown>>)
      .filter((r) => r.access === 'admin' && r.devOpen)
      .map((r) => firstSegment(r.pattern)),
  ),
];

export function allowedSegments(
  permissions: readonly PermissionName[],
  isAdmin = false,
  devBuild: boolean = __DEV_PAGES__,
): Set<string> {
  return new Set<string>([
    ...ALWAYS_ALLOWED,
    ...permissions.flatMap((p) => SEGMENTS_BY_PERMISSION[p] ?? []),
    ...(isAdmin ? ADMIN_SEGMENTS : []),
    ...(devBuild ? DEV_OPEN_SEGMENTS : []),
  ]);
}

/**
 * The spec's gate: a page opens when its first path segment is always allowed or derived from a permission
 * (or, for an admin account, is a back-office segment).
 */
export function canOpen(
  path: string,
  permissions: readonly PermissionName[],
  isAdmin = false,
  devBuild: boolean = __DEV_PAGES__,
): boolean {
  const allowed = allowedSegments(permissions, isAdmin, devBuild);
  if (allowed.has(firstSegment(path))) return true;
  const bare = pathPart(path).replace(/^\/+|\/+$/g, '');
  for (const key of allowed) if (key.includes('/') && (bare === key || bare.startsWith(`${key}/`))) return true;
  return false;
}

/** What a logged-in user gets at a path: the page, Access Denied, or Page not found when no page is there. */
export type PageAccess =
  | { kind: 'open'; match: RouteMatch }
  | { kind: 'denied'; match: RouteMatch }
  | { kind: 'notFound' };

export function pageAccess(path: string, permissions: readonly PermissionName[], isAdmin = false): PageAccess {
  const match = matchRoute(path);
  if (!match) return { kind: 'notFound' };
  if (!canOpen(path, permissions, isAdmin)) return { kind: 'denied', match };
  return needsOwnPermission(match.route, path, permissions) ? { kind: 'denied', match } : { kind: 'open', match };
}

/**
 * A page under a segment the spec always opens ('settings') that names a permission of its own, without it: its
 * calls would all answer 403 (a team member opening /settings/my-teams by its address saw its buttons and
 * 'Failed to fetch data'), so it shows Access Denied as the other pages do.
 */
function needsOwnPermission(
  route: Pick<Route<string, unknown>, 'access'>,
  path: string,
  permissions: readonly PermissionName[],
): boolean {
  const own = route.access;
  if (own === 'public' || own === 'always' || own === 'admin') return false;
  return (ALWAYS_ALLOWED as readonly string[]).includes(firstSegment(path)) && !permissions.includes(own);
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
