import type { components } from '../../openapi/schema';
import type { Router } from '../contract/router';
import type { UserType } from '../db/schema';

type KycStatus = components['schemas']['KycStatus'];
type PermissionName = components['schemas']['PermissionName'];

const kyc = (n: number): KycStatus => (n === 1 || n === 2 ? n : 0);

export function accountRoutes({ route }: Router) {
  route('/settings/my-account', 'get', ({ user }) => ({
    status: 200,
    body: {
      success: true,
      data: {
        id: user.id,
        email: user.email,
        first_name: user.first_name,
        last_name: user.last_name,
        user_type: user.user_type satisfies UserType,
        kyc_status: kyc(user.kyc_status),
        currency: user.currency,
        user_token: user.user_token,
        team_owner_id: user.team_owner_id,
        created_at: user.created_at,
      },
    },
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
