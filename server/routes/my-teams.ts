import type { AccountMail } from '../auth/accounts';
import { BUSY_MESSAGE } from '../auth/session';
import type { Router } from '../contract/router';
import { sellerIdOf } from '../domain/sales/totals';
import {
  acceptInvite,
  inviteMember,
  listTeam,
  readMember,
  removeMember,
  TEAM_MESSAGES,
  updateMember,
} from '../domain/teams';
import { MESSAGES } from '../http/errors';
import { holdOpen, spend } from '../quotas/quota';

/** Settings › My Teams (issue 13): the team of the seller the caller works for, and the invite link's call. */
export function myTeamsRoutes({ route }: Router, mail: AccountMail) {
  route('/settings/my-teams', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, message: 'Your team.', data: await listTeam(db, user) },
  }));

  route('/settings/my-teams/edit', 'get', async ({ user, query }, { db }) => ({
    status: 200,
    body: { success: true, message: 'The team member.', data: await readMember(db, user, query.member_id) },
  }));

  route('/settings/my-teams/add', 'post', async ({ user, body }, deps) => {
    // every invite is a mail to an address the seller chose: so many an hour, and a team of so many at most
    await holdOpen(deps, 'team-size', sellerIdOf(user));
    await spend(deps, 'team-invites-hourly', sellerIdOf(user));
    const member = await inviteMember(deps.db, deps.clock, mail, user, body);
    return {
      status: 200,
      body: {
        success: true,
        message: `We sent an invite to ${member.email}. The link works for 72 hours.`,
        data: member,
      },
    };
  });

  route('/settings/my-teams/update', 'post', async ({ user, body }, deps) => {
    if (body.resend_invite) await spend(deps, 'team-invites-hourly', sellerIdOf(user));
    const member = await updateMember(deps.db, deps.clock, mail, user, body);
    return {
      status: 200,
      body: {
        success: true,
        message: body.resend_invite ? `We sent a new invite to ${member.email}.` : 'The team member is saved.',
        data: member,
      },
    };
  });

  route('/settings/my-teams/delete', 'post', async ({ user, body }, { db, clock }) => {
    const removed = await removeMember(db, clock, user, body.member_id);
    return {
      status: 200,
      body: { success: true, message: 'The team member is removed and logged out.', data: removed },
    };
  });

  route('/settings/my-teams/accept-invite', 'post', async ({ body }, { db, clock }) => {
    if (body.password !== body.password_confirmation) {
      return {
        status: 422,
        body: {
          success: false,
          message: MESSAGES.validation,
          errors: [{ path: '/body/password_confirmation', message: 'The passwords do not match.' }],
        },
      };
    }
    const result = await acceptInvite(db, clock, body.token, body.password);
    if (result.kind === 'busy') {
      return {
        status: 503,
        body: { success: false, message: BUSY_MESSAGE },
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      };
    }
    if (result.kind === 'invalid')
      return { status: 404, body: { success: false, message: TEAM_MESSAGES.badInviteLink } };
    return {
      status: 200,
      body: {
        success: true,
        message: 'Your password is set. Log in with your email address and this password.',
        data: { email: result.email },
      },
    };
  });
}
