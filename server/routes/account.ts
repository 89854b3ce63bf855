import type { components } from '../../openapi/schema';
import type { Router } from '../contract/router';
import { myAccount } from '../domain/my-account';

type KycStatus = components['schemas']['KycStatus'];
type PermissionName = components['schemas']['PermissionName'];

const kyc = (n: number): KycStatus => (n === 1 || n === 2 ? n : 0);

export function accountRoutes({ route }: Router) {
  route('/settings/my-account', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await myAccount(db, user) },
  }));

  route('/account/roles-permissions', 'get', async ({ user }, { db }) => {
    const rows = await db
      .selectFrom('permissions')
      .leftJoin('user_permissions', (join) =>
        join
          .onRef('user_permissions.permission_name', '=', 'permissions.name')
          .on('user_permissions.user_id', '=', user.id),
      )
      .select(['permissions.name', 'user_permissions.is_can_access'])
      .orderBy('permissions.position')
      .execute();
    return {
      status: 200,
      body: {
        success: true,
        data: {
          user_type: user.user_type,
          permissions: rows.map((r) => ({
            name: r.name as PermissionName,
            is_can_access: r.is_can_access === 1 ? 1 : 0,
          })),
        },
      },
    };
  });

  // a team member answers with its seller's status: the member inherits the seller's hold
  route('/account/kyc-status', 'get', ({ user }) => ({
    status: 200,
    body: {
      success: true,
      data: {
        kyc_status: kyc(user.seller_kyc_status),
        rejection_reason: user.seller_kyc_status === 2 ? user.seller_kyc_rejection_reason : null,
      },
    },
  }));
}
