import type { components } from '../../../openapi/schema';
import { fakeApi } from './fake-api';

type Account = components['schemas']['Account'];
type Permission = components['schemas']['Permission'];
export type PermissionName = components['schemas']['PermissionName'];

/** The demo seller (seller@demo.test) as GET /settings/my-account answers it: KYC approved, GBP. */
export const DEMO_SELLER: Account = {
  id: 7,
  email: 'seller@demo.test',
  first_name: 'Sam',
  last_name: 'Seller',
  user_type: 'sellers',
  kyc_status: 1,
  currency: 'GBP',
  user_token: 'u7',
  team_owner_id: null,
  created_at: '2026-01-01T00:00:00Z',
};

export interface FakeProfile {
  /** What differs from the demo seller (user_type, kyc_status, email, ids...). */
  account?: Partial<Account>;
  /** The permissions granted (a name), or each with its flag as the server lists it. */
  permissions?: readonly (PermissionName | Permission)[];
  /** GET /account/kyc-status's reason, for a rejected seller. */
  rejectionReason?: string | null;
}

/**
 * The three calls a session's profile is read from (the account, its permissions, its KYC status), answered for
 * one user: the demo seller unless `account` says otherwise. Returns the account the fake answers.
 */
export function fakeProfile({ account = {}, permissions = [], rejectionReason = null }: FakeProfile = {}): Account {
  const answer = { ...DEMO_SELLER, user_token: `u${account.id ?? DEMO_SELLER.id}`, ...account };
  fakeApi.on('GET /settings/my-account', () => answer);
  fakeApi.on('GET /account/roles-permissions', () => ({
    user_type: answer.user_type,
    permissions: permissions.map((p) => (typeof p === 'string' ? { name: p, is_can_access: 1 } : p)),
  }));
  fakeApi.on('GET /account/kyc-status', () => ({ kyc_status: answer.kyc_status, rejection_reason: rejectionReason }));
  return answer;
}
