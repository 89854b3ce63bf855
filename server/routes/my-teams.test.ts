import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIMES } from '../auth/account-tokens';
import { hashToken } from '../auth/tokens';
import { DEMO_PASSWORD } from '../db/seed/index';
import { TEAM_MESSAGES } from '../domain/teams';
import { readOutbox } from '../mail/outbox';
import { freshServer } from '../test-support';
import { type Answer, call, type Server, userId } from './trade-testing';

// Settings › My Teams (issue 13): invite by email with permissions from the full list (never one the inviting
// user lacks), the single-use invite link, edit, update, remove with the member's sessions ended at once, and
// another seller's member id answering 404.

type Member = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  status: 'invited' | 'active';
  permissions: { name: string; is_can_access: 0 | 1 }[];
};
const granted = (m: Member) => m.permissions.filter((p) => p.is_can_access === 1).map((p) => p.name);
const memberOf = (a: Answer) => a.body.data as unknown as Member;
const PASSWORD = 'Team-member-2026';

describe('my teams', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let demoMember: string;

  beforeAll(async () => {
    s = await freshServer({ appUrl: 'http://portal.test' });
    [seller, rival, demoMember] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const invite = (token: string, email: string, permissions: string[], extra: Record<string, unknown> = {}) =>
    call(s, 'POST', '/settings/my-teams/add', token, {
      email,
      first_name: 'Tess',
      last_name: 'Team',
      permissions,
      ...extra,
    });
  const update = (token: string, body: Record<string, unknown>) =>
    call(s, 'POST', '/settings/my-teams/update', token, body);
  const remove = (token: string, id: number) => call(s, 'POST', '/settings/my-teams/delete', token, { member_id: id });
  const edit = (token: string, id: number) => call(s, 'GET', `/settings/my-teams/edit?member_id=${id}`, token);
  const team = async (token: string) => {
    const res = await call(s, 'GET', '/settings/my-teams', token);
    expect(res.status).toBe(200);
    return res.body.data as unknown as { my_teams: Member[]; permissions: { name: string }[]; grantable: string[] };
  };
  const accept = (token: string, password = PASSWORD, confirmation = password) =>
    s.json('POST', '/settings/my-teams/accept-invite', { token, password, password_confirmation: confirmation });
  /** The token of the newest invite link mailed to `to`. */
  const inviteToken = async (to: string) => {
    const [mail] = await readOutbox(s.db, { to });
    const found = /http:\/\/portal\.test\/signup\/invite\/([A-Za-z0-9_-]+)/.exec(mail?.body ?? '');
    if (!found?.[1]) throw new Error(`no invite link mailed to ${to}`);
    return found[1];
  };
  /** A seller with every permission who may give `settings` to a member of its own: the demo seller's team. */
  const invited = async (email: string, permissions: string[]) => {
    const res = await invite(seller, email, permissions);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return memberOf(res);
  };
  const joined = async (email: string, permissions: string[]) => {
    const member = await invited(email, permissions);
    expect((await accept(await inviteToken(email))).status).toBe(200);
    return { member, token: await s.loginAs(email, PASSWORD) };
  };

  it('invites a member with the chosen permissions and no usable password; the link sets one, once', async () => {
    const member = await invited('Tess.Team@Example.test', ['dashboard', 'sales']);
    expect(member).toMatchObject({ email: 'tess.team@example.test', status: 'invited', first_name: 'Tess' });
    expect(granted(member)).toEqual(['dashboard', 'sales']);
    expect(member.permissions.map((p) => p.name)).toEqual([
      'settings',
      'dashboard',
      'notification',
      'event',
      'sales',
      'reports',
      'lmt-pay',
      'lmt-trade',
    ]);
    const listed = await team(seller);
    expect(listed.my_teams.map((m) => m.email)).toContain('tess.team@example.test');
    expect(listed.my_teams.map((m) => m.email)).toContain('member@demo.test');
    expect(listed.permissions).toHaveLength(8);

    // no password works before the link is opened
    const early = await s.json('POST', '/auth/login', { email: 'tess.team@example.test', password: PASSWORD });
    expect(early.status).toBe(401);

    const token = await inviteToken('tess.team@example.test');
    const [mail] = await readOutbox(s.db, { to: 'tess.team@example.test' });
    expect(mail?.body).toContain('72 hours');
    // only the hash is stored
    const stored = await s.db
      .selectFrom('account_tokens')
      .select(['token_hash', 'purpose'])
      .where('user_id', '=', member.id)
      .execute();
    expect(stored).toEqual([{ token_hash: hashToken(token), purpose: 'invite' }]);

    const mismatch = await accept(token, PASSWORD, `${PASSWORD}x`);
    expect(mismatch.status).toBe(422);
    const accepted = await accept(token);
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { data: { email: string } }).data.email).toBe('tess.team@example.test');
    const again = await accept(token, 'Another-password-1');
    expect(again.status).toBe(404);
    expect(((await again.json()) as { message: string }).message).toBe(TEAM_MESSAGES.badInviteLink);

    const memberToken = await s.loginAs('tess.team@example.test', PASSWORD);
    const roles = await call(s, 'GET', '/account/roles-permissions', memberToken);
    expect(roles.status).toBe(200);
    const perms = (roles.body.data as unknown as { permissions: { name: string; is_can_access: number }[] })
      .permissions;
    expect(perms.filter((p) => p.is_can_access === 1).map((p) => p.name)).toEqual(['dashboard', 'sales']);
    expect((await edit(seller, member.id)).body.data).toMatchObject({ status: 'active' });
    // what it was not granted stays closed
    expect((await call(s, 'GET', '/settings/my-teams', memberToken)).status).toBe(403);
  });

  it('a tampered or unknown invite token is refused, and an address with an account cannot be invited', async () => {
    await invited('tamper@example.test', ['dashboard']);
    const token = await inviteToken('tamper@example.test');
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await accept(tampered)).status).toBe(404);
    expect((await accept('not-a-token-at-all')).status).toBe(404);
    // the real one still works after the tampered tries
    expect((await accept(token)).status).toBe(200);

    const taken = await invite(seller, 'Rival@demo.test', ['dashboard']);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(TEAM_MESSAGES.emailTaken);
  });

  it('an invite link expires after 72 hours; a resent one works and retires the first', async () => {
    const member = await invited('late-member@example.test', ['sales']);
    const first = await inviteToken('late-member@example.test');
    s.clock.advance(TOKEN_LIFETIMES.invite + 1000);
    expect((await accept(first)).status).toBe(404);
    seller = await s.loginAs('seller@demo.test');
    rival = await s.loginAs('rival@demo.test');
    demoMember = await s.loginAs('member@demo.test');
    const resent = await update(seller, { member_id: member.id, resend_invite: true });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    const second = await inviteToken('late-member@example.test');
    expect(second).not.toBe(first);
    expect((await accept(first)).status).toBe(404);
    expect((await accept(second)).status).toBe(200);
    // accepted: nothing to resend
    expect((await update(seller, { member_id: member.id, resend_invite: true })).status).toBe(409);
  });

  it('edits and updates names and permissions; another seller reads and changes nothing of it (404)', async () => {
    const member = await invited('edited@example.test', ['dashboard']);
    const read = await edit(seller, member.id);
    expect(read.status).toBe(200);
    expect(memberOf(read).email).toBe('edited@example.test');

    const changed = await update(seller, {
      member_id: member.id,
      first_name: '  Edna ',
      permissions: ['sales', 'reports', 'sales'],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(memberOf(changed)).toMatchObject({ first_name: 'Edna', last_name: 'Team' });
    expect(granted(memberOf(changed))).toEqual(['sales', 'reports']);
    expect(granted(memberOf(await edit(seller, member.id)))).toEqual(['sales', 'reports']);

    for (const res of [
      await edit(rival, member.id),
      await update(rival, { member_id: member.id, permissions: ['settings'] }),
      await remove(rival, member.id),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(TEAM_MESSAGES.notFound);
    }
    // a seller's own id, a seller's id from another team, an unknown id: not members
    const sellerId = await userId(s, 'seller@demo.test');
    expect((await edit(seller, sellerId)).status).toBe(404);
    expect((await edit(rival, await userId(s, 'member@demo.test'))).status).toBe(404);
    expect((await edit(seller, 2_000_000_000)).status).toBe(404);
    expect(granted(memberOf(await edit(seller, member.id)))).toEqual(['sales', 'reports']);
    expect((await team(rival)).my_teams.map((m) => m.email)).not.toContain('edited@example.test');
    // a member without `settings` has no access to the team at all
    expect((await edit(demoMember, member.id)).status).toBe(403);
  });

  it('a member with settings grants and takes away only permissions it has itself (403 otherwise)', async () => {
    const { token: manager, member: managerRow } = await joined('manager@example.test', ['settings', 'sales']);
    expect((await team(manager)).grantable).toEqual(['settings', 'sales']);

    const refused = await invite(manager, 'escalate@example.test', ['sales', 'lmt-pay']);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(TEAM_MESSAGES.cannotChange(['lmt-pay']));
    expect(await s.db.selectFrom('users').select('id').where('email', '=', 'escalate@example.test').execute()).toEqual(
      [],
    );

    const made = await invite(manager, 'helper@example.test', ['sales']);
    expect(made.status).toBe(200);
    const helper = memberOf(made);
    // giving what it lacks to a member of the team: refused, nothing changed
    const grant = await update(manager, { member_id: helper.id, permissions: ['sales', 'reports'] });
    expect(grant.status).toBe(403);
    expect(granted(memberOf(await edit(seller, helper.id)))).toEqual(['sales']);
    // taking away what it lacks from another member: refused too
    const other = await invited('stronger@example.test', ['sales', 'lmt-pay']);
    const takeAway = await update(manager, { member_id: other.id, permissions: ['sales'] });
    expect(takeAway.status).toBe(403);
    expect(granted(memberOf(await edit(seller, other.id)))).toEqual(['sales', 'lmt-pay']);
    // nor remove one who has more than it
    expect((await remove(manager, other.id)).status).toBe(403);
    // nor rename it, nor send it its invite again
    const renamed = await update(manager, { member_id: other.id, first_name: 'Hacked' });
    expect(renamed.status).toBe(403);
    expect(renamed.body.message).toBe(TEAM_MESSAGES.cannotEdit);
    expect((await update(manager, { member_id: other.id, resend_invite: true })).status).toBe(403);
    expect(memberOf(await edit(seller, other.id)).first_name).not.toBe('Hacked');
    // a member as strong as it may be renamed
    expect((await update(manager, { member_id: helper.id, first_name: 'Helpful' })).status).toBe(200);
    // nor change its own permissions (raising or lowering), nor remove itself
    const raise = await update(manager, { member_id: managerRow.id, permissions: ['settings', 'sales', 'event'] });
    expect(raise.status).toBe(409);
    expect(raise.body.message).toBe(TEAM_MESSAGES.self);
    expect((await update(manager, { member_id: managerRow.id, permissions: ['settings'] })).status).toBe(409);
    expect((await remove(manager, managerRow.id)).status).toBe(409);
    // what it has it may give and take
    const fine = await update(manager, { member_id: helper.id, permissions: ['settings', 'sales'] });
    expect(fine.status).toBe(200);
    expect(granted(memberOf(fine))).toEqual(['settings', 'sales']);
    // the seller may change anything
    expect((await update(seller, { member_id: other.id, permissions: ['sales'] })).status).toBe(200);
  });

  it('removing a member ends its sessions at once (401), retires its invite and frees its address', async () => {
    const { member, token } = await joined('leaver@example.test', ['dashboard', 'notification']);
    const second = await s.loginAs('leaver@example.test', PASSWORD);
    expect((await call(s, 'GET', '/dashboard/sales-overview', token)).status).toBe(200);

    const removed = await remove(seller, member.id);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data).toEqual({ removed_id: member.id, sessions_ended: 2 });
    for (const t of [token, second]) expect((await call(s, 'GET', '/dashboard/sales-overview', t)).status).toBe(401);
    const login = await s.json('POST', '/auth/login', { email: 'leaver@example.test', password: PASSWORD });
    expect(login.status).toBe(401);
    expect((await edit(seller, member.id)).status).toBe(404);
    expect((await remove(seller, member.id)).status).toBe(404);
    expect((await team(seller)).my_teams.map((m) => m.id)).not.toContain(member.id);

    // an invited member removed before it accepts: its link no longer works
    const pending = await invited('never@example.test', ['sales']);
    const link = await inviteToken('never@example.test');
    expect((await remove(seller, pending.id)).status).toBe(200);
    expect((await accept(link)).status).toBe(404);

    // the address may be invited again
    expect((await invite(seller, 'leaver@example.test', ['dashboard'])).status).toBe(200);
  });

  it('refuses bad input with the field; the back office has a team of its own', async () => {
    const bad = await invite(seller, 'not-an-email', ['nope']);
    expect(bad.status).toBe(422);
    const paths = (bad.body.errors ?? []).map((e) => e.path);
    expect(paths.some((p) => p.startsWith('/body/email'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/body/permissions'))).toBe(true);
    expect((await invite(seller, 'blank@example.test', ['sales'], { first_name: '   ' })).status).toBe(422);
    const admin = await s.loginAs('admin@demo.test', DEMO_PASSWORD);
    expect((await team(admin)).my_teams).toEqual([]);
    expect((await edit(admin, await userId(s, 'member@demo.test'))).status).toBe(404);
  });

  it('each demo seller has a team of its own: invited members are listed as invited', async () => {
    const rivals = (await team(rival)).my_teams;
    expect(rivals.map((m) => [m.email, m.status])).toEqual(
      expect.arrayContaining([
        ['rex.rival-team@demo.test', 'invited'],
        ['ria.rival-team@demo.test', 'invited'],
      ]),
    );
    const mine = (await team(seller)).my_teams.map((m) => m.email);
    expect(mine).toEqual(expect.arrayContaining(['member@demo.test', 'ivy.invited@demo.test']));
    expect(mine).not.toContain('rex.rival-team@demo.test');
  });
});
