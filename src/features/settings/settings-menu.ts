import type { PermissionName } from '../../../machines/session.machine';
import { type Route, type RouteKey, routes } from '../../routes';

/**
 * One entry of the Settings sub-menu: its label and the key of its page in the route registry (src/routes.ts).
 * An entry whose page is not registered yet shows as 'coming soon' text; once its page is registered under that
 * key it becomes a link with nothing else to change. `query` is added to the href (KYC's `?handle=true`).
 */
export interface SettingsMenuEntry {
  label: string;
  /** The registry key of the page (a string, so that a page another engineer has not registered yet can be named). */
  route: string;
  query?: string;
  /** Shown only with this permission, the one its server calls need: the team is settings', the address book lmt-trade's. */
  permission?: PermissionName;
}

/** The Settings sub-menu, in order (issue 13): add a page by registering its route under the key named here. */
export const SETTINGS_MENU: readonly SettingsMenuEntry[] = [
  { label: 'My Account', route: 'myAccount' },
  { label: 'Change Password', route: 'changePassword' },
  { label: 'Address Book', route: 'addressBook', permission: 'lmt-trade' },
  { label: 'Bank Accounts', route: 'bankAccounts', permission: 'settings' },
  { label: 'API Tokens', route: 'apiTokens', permission: 'settings' },
  { label: 'API Reference', route: 'apiDocs', permission: 'settings' },
  { label: 'My Teams', route: 'myTeams', permission: 'settings' },
  { label: 'Templates', route: 'templates', permission: 'settings' },
  { label: 'Referrals', route: 'referrals', permission: 'settings' },
  { label: 'Stored Cards', route: 'storedCards', permission: 'lmt-pay' },
  { label: 'Seller Contacts', route: 'sellerContacts', permission: 'settings' },
  { label: 'Partner Settings', route: 'partnerSettings', permission: 'settings' },
  { label: 'Request a Feature', route: 'requestFeature', permission: 'settings' },
  { label: 'Your Data', route: 'yourData' },
  { label: 'KYC', route: 'kyc', query: 'handle=true' },
];

export interface SettingsMenuLink {
  label: string;
  /** The page's href, or null while its page is not registered. */
  to: string | null;
  /** The page's path pattern (what the active entry is matched on), or null. */
  pattern: string | null;
}

/** The entries a user with these permissions sees, each with its href when its page exists. */
export function settingsMenuLinks(
  permissions: readonly PermissionName[],
  entries: readonly SettingsMenuEntry[] = SETTINGS_MENU,
): SettingsMenuLink[] {
  const registry = routes as Readonly<Record<string, Route<string, unknown>>>;
  return entries
    .filter((entry) => !entry.permission || permissions.includes(entry.permission))
    .map((entry) => {
      const page = Object.hasOwn(registry, entry.route) ? registry[entry.route as RouteKey] : undefined;
      if (!page || page.pattern.includes(':')) return { label: entry.label, to: null, pattern: null };
      const base = page.href({});
      return { label: entry.label, to: entry.query ? `${base}?${entry.query}` : base, pattern: page.pattern };
    });
}
