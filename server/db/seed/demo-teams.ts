import { newUserToken } from '../../auth/tokens';
import type { Clock } from '../../clock';
import type { Db } from '../database';

export const DEMO_TEAMS_FIXTURE = 'demo-teams-v1';

/** A stored password hash no password matches, as an invited member has until it opens its link (domain/teams.ts). */
const NO_PASSWORD = '!invited: no password chosen yet';

const INVITED = [
  { team: 'seller', email: 'ivy.invited@demo.test', first_name: 'Ivy', last_name: 'Invited', grant: ['sales'] },
  { team: 'rival', email: 'rex.rival-team@demo.test', first_name: 'Rex', last_name: 'Helper', grant: ['dashboard'] },
  { team: 'rival', email: 'ria.rival-team@demo.test', first_name: 'Ria', last_name: 'Helper', grant: ['sales'] },
] as const;

/**
 * Settings › My Teams: team members invited by email who have not chosen a password yet (no invite link is
 * kept: the owner sends a new one from the page), one for the demo seller beside member@demo.test and two for
 * the rival, so that each seller has a team of its own (another seller's member answers 404; the IDOR matrix
 * finds members of both). No hashing: an invited member has no usable password.
 */
export async function seedDemoTeams(
  db: Db,
  clock: Clock,
  owners: { seller: number; rival: number },
  permissionNames: readonly string[],
): Promise<void> {
  const now = clock.now().toISOString();
  for (const m of INVITED) {
    const owner = owners[m.team];
    const currency = await db.selectFrom('users').select('currency').where('id', '=', owner).executeTakeFirstOrThrow();
    const made = await db
      .insertInto('users')
      .values({
        email: m.email,
        password_hash: NO_PASSWORD,
        first_name: m.first_name,
        last_name: m.last_name,
        user_type: 'team_members',
        kyc_status: 0,
        kyc_rejection_reason: null,
        team_owner_id: owner,
        currency: currency.currency,
        user_token: newUserToken(),
        created_at: now,
        deleted_at: null,
        email_verified: 0,
        invited_at: now,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!made) continue;
    await db
      .insertInto('user_permissions')
      .values(
        permissionNames.map((name) => ({
          user_id: made.id,
          permission_name: name,
          is_can_access: (m.grant as readonly string[]).includes(name) ? 1 : 0,
        })),
      )
      .execute();
  }
}
