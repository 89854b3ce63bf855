import { randomBytes } from 'node:crypto';
import type { components } from '../../openapi/schema';
import { issueToken, peekToken, retireTokens, TOKEN_LIFETIMES, useToken } from '../auth/account-tokens';
import { type AccountMail, normaliseEmail } from '../auth/accounts';
import { hashPool, PoolFullError } from '../auth/hash-pool';
import { hashPassword } from '../auth/passwords';
import { countCall } from '../auth/request-limit';
import { type AuthUser, logActivity } from '../auth/session';
import { newUserToken } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { PERMISSIONS, type PermissionName } from '../db/seed/index';
import { HttpError } from '../http/errors';
import { MAIL_LIMIT } from '../quotas/limits';
import { sellerIdOf } from './sales/totals';

/**
 * Settings › My Teams (issue 13): a team member is a user whose `team_owner_id` is the seller it works for. It
 * is invited by email with the permissions chosen from the full list (never one the inviting user lacks), has
 * no usable password until it opens the invite link (an `invite` account token: 72 hours, once, only its hash
 * stored) and chooses one, and is removed with every session of it ended at once.
 */

export type TeamMember = components['schemas']['TeamMember'];

export const TEAM_MESSAGES = {
  notFound: 'This person is not a member of your team.',
  emailTaken: 'An account already uses this email address.',
  cannotChange: (names: readonly string[]) =>
    `You cannot grant or take away a permission you do not have yourself: ${names.join(', ')}.`,
  cannotRemove: 'You cannot remove a team member who has permissions you do not have yourself.',
  cannotEdit: 'You cannot change a team member who has permissions you do not have yourself.',
  self: 'You cannot change your own permissions or remove yourself from the team. Ask the account owner.',
  accepted: 'This member has already accepted the invite: there is no invite to send again.',
  tooManyMails: (seconds: number) =>
    `Too many emails were sent to this address. Try again in ${Math.ceil(seconds / 60)} minutes.`,
  badInviteLink: 'This invite link is not valid or has expired. Ask for a new one.',
} as const;

/** A stored password hash that no password matches (verifyPassword refuses what it cannot parse). */
const NO_PASSWORD = '!invited: no password chosen yet';

const hours = (ms: number) => ms / 3_600_000;
const link = (mail: AccountMail, path: string) => `${mail.appUrl.replace(/\/+$/, '')}${path}`;

/** The account whose team the caller manages: its own, or its seller's for a team member. */
export function teamOwnerOf(user: AuthUser): number {
  return sellerIdOf(user);
}

const memberColumns = ['id', 'email', 'first_name', 'last_name', 'email_verified', 'invited_at', 'created_at'] as const;

type MemberRow = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  email_verified: number;
  invited_at: string | null;
  created_at: string;
};

const teamQuery = (db: Db, ownerId: number) =>
  db
    .selectFrom('users')
    .select(memberColumns)
    .where('team_owner_id', '=', ownerId)
    .where('user_type', '=', 'team_members')
    .where('deleted_at', 'is', null);

/** The granted permission names of each of these users. */
async function grantedOf(db: Db, ids: readonly number[]): Promise<Map<number, Set<PermissionName>>> {
  const out = new Map<number, Set<PermissionName>>(ids.map((id) => [id, new Set()]));
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('user_permissions')
    .select(['user_id', 'permission_name'])
    .where('user_id', 'in', [...ids])
    .where('is_can_access', '=', 1)
    .execute();
  for (const r of rows) out.get(r.user_id)?.add(r.permission_name as PermissionName);
  return out;
}

function toMember(row: MemberRow, granted: ReadonlySet<PermissionName>): TeamMember {
  return {
    id: row.id,
    member_id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    status: row.email_verified === 1 ? 'active' : 'invited',
    invited_at: row.invited_at,
    created_at: row.created_at,
    permissions: PERMISSIONS.map((p) => ({ name: p.name, is_can_access: granted.has(p.name) ? 1 : 0 })),
  };
}

/** One member of the caller's seller's team, else 404 (another seller's member, anyone else, an unknown id). */
async function findMember(db: Db, user: AuthUser, id: number): Promise<MemberRow> {
  const row = await teamQuery(db, teamOwnerOf(user)).where('id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404, TEAM_MESSAGES.notFound);
  return row;
}

export async function listTeam(db: Db, user: AuthUser) {
  const rows = await teamQuery(db, teamOwnerOf(user)).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  const granted = await grantedOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    my_teams: rows.map((r) => toMember(r, granted.get(r.id) ?? new Set())),
    permissions: PERMISSIONS.map((p) => ({ name: p.name, label: p.label })),
    grantable: PERMISSIONS.map((p) => p.name).filter((name) => user.permissions.has(name)),
  };
}

export async function readMember(db: Db, user: AuthUser, id: number): Promise<TeamMember> {
  const row = await findMember(db, user, id);
  return toMember(row, (await grantedOf(db, [row.id])).get(row.id) ?? new Set());
}

/** Refuses (403) a change of any permission the caller does not have itself. */
function mayChange(user: AuthUser, changed: Iterable<PermissionName>) {
  const lacking = [...changed].filter((name) => !user.permissions.has(name));
  if (lacking.length > 0) throw new HttpError(403, TEAM_MESSAGES.cannotChange(lacking));
}

async function writePermissions(db: Db, userId: number, granted: ReadonlySet<PermissionName>) {
  await db.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
  await db
    .insertInto('user_permissions')
    .values(
      PERMISSIONS.map((p) => ({
        user_id: userId,
        permission_name: p.name,
        is_can_access: granted.has(p.name) ? 1 : 0,
      })),
    )
    .execute();
}

/**
 * Sends the invite unless the address has had its share of mail this hour (429: nothing is written). The mail
 * carries no text a seller typed: not the member's names (a stranger's address with 'Buy cheap tickets at
 * evil.test' as its first name made the platform greet the stranger with an advert), nor the seller's own names
 * (chosen at sign-up, changed at will). It names the inviting account by its address, which the platform
 * verified, and says what to do in the platform's own words.
 */
async function sendInvite(
  db: Db,
  clock: Clock,
  mail: AccountMail,
  user: AuthUser,
  member: { id: number; email: string },
) {
  const counted = await countCall(db, MAIL_LIMIT, member.email, clock.now());
  if (!counted.allowed) {
    throw new HttpError(429, TEAM_MESSAGES.tooManyMails(counted.retryAfterSeconds), undefined, {
      'Retry-After': String(counted.retryAfterSeconds),
    });
  }
  const owner = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', sellerIdOf(user))
    .executeTakeFirstOrThrow();
  const token = await issueToken(db, member.id, 'invite', clock.now());
  await mail.mailer.send(db, {
    to: member.email,
    subject: 'You are invited to join a team on SB Portal',
    text: [
      'Hello,',
      '',
      `The SB Portal account ${owner.email} invited you to work in it as a member of its team.`,
      'Open this link to choose your password; then log in with this email address:',
      link(mail, `/signup/invite/${token}`),
      '',
      `The link works once, for ${hours(TOKEN_LIFETIMES.invite)} hours. If you did not expect it, ignore this email: no account is used until you choose a password.`,
    ].join('\n'),
  });
}

export interface NewMember {
  email: string;
  first_name: string;
  last_name: string;
  permissions: readonly PermissionName[];
}

/** Invites a member (called in the operation's transaction: a refusal after the insert undoes it). */
export async function inviteMember(
  db: Db,
  clock: Clock,
  mail: AccountMail,
  user: AuthUser,
  input: NewMember,
): Promise<TeamMember> {
  const ownerId = teamOwnerOf(user);
  const granted = new Set(input.permissions);
  mayChange(user, granted);
  const email = normaliseEmail(input.email);
  const owner = await db.selectFrom('users').select('currency').where('id', '=', ownerId).executeTakeFirstOrThrow();
  const now = clock.now().toISOString();
  const inserted = await db
    .insertInto('users')
    .values({
      email,
      password_hash: NO_PASSWORD,
      first_name: input.first_name.trim(),
      last_name: input.last_name.trim(),
      user_type: 'team_members',
      kyc_status: 0,
      kyc_rejection_reason: null,
      team_owner_id: ownerId,
      currency: owner.currency,
      user_token: newUserToken(),
      created_at: now,
      deleted_at: null,
      email_verified: 0,
      invited_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(memberColumns)
    .executeTakeFirst();
  if (!inserted) throw new HttpError(409, TEAM_MESSAGES.emailTaken);
  await writePermissions(db, inserted.id, granted);
  await sendInvite(db, clock, mail, user, inserted);
  await logActivity(db, clock, user.id, 'team_member_invited', `Invited ${email} to the team`);
  return toMember(inserted, granted);
}

export interface MemberChange {
  member_id: number;
  first_name?: string;
  last_name?: string;
  permissions?: readonly PermissionName[];
  resend_invite?: boolean;
}

export async function updateMember(
  db: Db,
  clock: Clock,
  mail: AccountMail,
  user: AuthUser,
  input: MemberChange,
): Promise<TeamMember> {
  const row = await findMember(db, user, input.member_id);
  let granted = (await grantedOf(db, [row.id])).get(row.id) ?? new Set<PermissionName>();
  // the rule of removing (and of the permissions below) holds for the names and the invite too: a member may not
  // touch one who may do more than it can
  const stronger = row.id !== user.id && [...granted].some((name) => !user.permissions.has(name));
  if (stronger && (input.first_name !== undefined || input.last_name !== undefined || input.resend_invite)) {
    throw new HttpError(403, TEAM_MESSAGES.cannotEdit);
  }
  if (input.permissions) {
    const next = new Set(input.permissions);
    const changed = PERMISSIONS.map((p) => p.name).filter((name) => next.has(name) !== granted.has(name));
    if (changed.length > 0) {
      if (row.id === user.id) throw new HttpError(409, TEAM_MESSAGES.self);
      mayChange(user, changed);
      await writePermissions(db, row.id, next);
      granted = next;
    }
  }
  const names = {
    ...(input.first_name === undefined ? {} : { first_name: input.first_name.trim() }),
    ...(input.last_name === undefined ? {} : { last_name: input.last_name.trim() }),
  };
  if (Object.keys(names).length > 0) await db.updateTable('users').set(names).where('id', '=', row.id).execute();
  const member = { ...row, ...names };
  if (input.resend_invite) {
    if (row.email_verified === 1) throw new HttpError(409, TEAM_MESSAGES.accepted);
    await sendInvite(db, clock, mail, user, member);
  }
  await logActivity(db, clock, user.id, 'team_member_updated', `Updated team member ${row.email}`);
  return toMember(member, granted);
}

/**
 * Removes a member: the row stays (what it did keeps its author) but is deleted, so no token of it
 * authenticates any more, and every session of it is revoked besides; its address is freed (a tombstone takes
 * its place, the column being unique) so that it may be invited again; its invite link stops working.
 */
export async function removeMember(
  db: Db,
  clock: Clock,
  user: AuthUser,
  id: number,
): Promise<{ removed_id: number; sessions_ended: number }> {
  const row = await findMember(db, user, id);
  if (row.id === user.id) throw new HttpError(409, TEAM_MESSAGES.self);
  const granted = (await grantedOf(db, [row.id])).get(row.id) ?? new Set<PermissionName>();
  if ([...granted].some((name) => !user.permissions.has(name))) throw new HttpError(403, TEAM_MESSAGES.cannotRemove);
  const now = clock.now();
  await db
    .updateTable('users')
    .set({
      deleted_at: now.toISOString(),
      email: `removed-${row.id}-${randomBytes(6).toString('hex')}@removed.invalid`,
    })
    .where('id', '=', row.id)
    .execute();
  const revoked = await db
    .updateTable('auth_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('user_id', '=', row.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  await retireTokens(db, row.id, 'invite', now);
  await logActivity(db, clock, user.id, 'team_member_removed', `Removed ${row.email} from the team`);
  return { removed_id: row.id, sessions_ended: Number(revoked.numUpdatedRows ?? 0) };
}

/**
 * Sets an invited member's first password with its invite token. As the password reset: the token is checked
 * before the (costly) hash and used after it in one conditional update, so it works once even when two calls
 * race. Answers the member's address, 'invalid', or 'busy' when the hashing pool is full.
 */
export async function acceptInvite(
  db: Db,
  clock: Clock,
  token: string,
  password: string,
): Promise<{ kind: 'accepted'; email: string } | { kind: 'invalid' } | { kind: 'busy'; retryAfterSeconds: number }> {
  if ((await peekToken(db, token, 'invite', clock.now())) === null) return { kind: 'invalid' };
  let passwordHash: string;
  try {
    passwordHash = await hashPassword(password, (task) => hashPool.tryRun(task));
  } catch (error) {
    if (error instanceof PoolFullError) return { kind: 'busy', retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
  const now = clock.now();
  const email = await db.transaction().execute(async (trx) => {
    const userId = await useToken(trx, token, 'invite', now);
    if (userId === null) return null;
    const member = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, email_verified: 1 })
      .where('id', '=', userId)
      .where('user_type', '=', 'team_members')
      .where('deleted_at', 'is', null)
      .returning('email')
      .executeTakeFirst();
    if (!member) return null;
    await logActivity(trx, clock, userId, 'invite_accepted', 'Accepted the team invite and chose a password');
    return member.email;
  });
  return email === null ? { kind: 'invalid' } : { kind: 'accepted', email };
}
