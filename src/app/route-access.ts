import type { PermissionName } from '../../machines/session.machine';

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

/** The first path segments each permission opens. */
export const SEGMENTS_BY_PERMISSION: Readonly<Record<PermissionName, readonly string[]>> = {
  settings: [],
  dashboard: [],
  notification: ['notifications'],
  event: ['add-listings', 'my-listings', 'bulk-listings'],
  sales: ['sales'],
  reports: ['report-history'],
  // the wallet lives at reports/wallet
  'lmt-pay': ['reports'],
  'lmt-trade': ['trade'],
};

export function allowedSegments(permissions: readonly PermissionName[]): Set<string> {
  return new Set<string>([...ALWAYS_ALLOWED, ...permissions.flatMap((p) => SEGMENTS_BY_PERMISSION[p] ?? [])]);
}

export function firstSegment(path: string): string {
  return (
    path
      .split('?')[0]
      ?.split('/')
      .find((part) => part.length > 0) ?? ''
  );
}

export function canOpen(path: string, permissions: readonly PermissionName[]): boolean {
  return allowedSegments(permissions).has(firstSegment(path));
}

/** The header's title for a path (spec section 2, Header). */
export function headerTitle(path: string, firstName: string): string {
  if (path.includes('my-listings')) return 'Inventory';
  if (path.includes('add-listings')) return 'Add Inventory';
  if (path.includes('bulk-listings')) return 'Bulk Inventory';
  return firstName ? `Welcome ${firstName}` : 'Welcome';
}
