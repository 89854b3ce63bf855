import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUserToken } from '../auth/tokens';
import { readOutbox } from '../mail/outbox';
import { QUOTAS } from '../quotas/limits';
import { freshServer } from '../test-support';
import { call, type Server, userId } from './trade-testing';

// What an invite may cost the operator: mail to addresses the seller chose, so at most so many an hour per seller
// (429 with Retry-After beyond), a team of so many at most (409), and a mail that carries no text the seller typed.

const SPAM = 'Buy cheap tickets at evil.test';

describe('team invites: mail the seller cannot turn into its own', () => {
  let s: Server;
  let rival: string;
  let rivalId: number;

  beforeAll(async () => {
    s = await freshServer({ appUrl: 'http://portal.test' });
    rival = await s.loginAs('rival@demo.test');
    rivalId = await userId(s, 'rival@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  let seq = 0;
  const invite = (token: string, names: { first_name?: string; last_name?: string } = {}) =>
    call(s, 'POST', '/settings/my-teams/add', token, {
      email: `invitee-${++seq}@example.test`,
      first_name: 'Tess',
      last_name: 'Team',
      permissions: ['sales'],
      ...names,
    });
  const teamSize = async (ownerId: number) =>
    Number(
      (
        await s.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('team_owner_id', '=', ownerId)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('greets nobody by a name the seller typed, nor names the seller by its own', async () => {
    // the seller's own names are text it chose too (at sign-up, or in My account)
    await s.db
      .updateTable('users')
      .set({ first_name: 'Visit', last_name: 'evil.test now' })
      .where('id', '=', rivalId)
      .execute();
    rival = await s.loginAs('rival@demo.test');
    const res = await invite(rival, { first_name: SPAM, last_name: 'Visit evil.test' });
    expect(res.status).toBe(200);
    const [mail] = await readOutbox(s.db, { to: `invitee-${seq}@example.test` });
    expect(mail?.subject).toBe('You are invited to join a team on SB Portal');
    expect(mail?.body.split('\n')[0]).toBe('Hello,');
    expect(`${mail?.subject}\n${mail?.body}`).not.toMatch(/evil\.test|Buy cheap|Visit/);
    expect(mail?.body).toContain('The SB Portal account rival@demo.test invited you');
  });

  it('sends at most 20 invites an hour per seller: 60 at once give 20, the rest 429 with Retry-After', async () => {
    const cap = QUOTAS['team-invites-hourly'];
    expect(cap.max).toBe(20);
    const seller = await s.loginAs('seller@demo.test');
    const sellerId = await userId(s, 'seller@demo.test');
    const membersBefore = await teamSize(sellerId);
    const mailsBefore = (await readOutbox(s.db, { limit: 10_000 })).length;
    const answers = await Promise.all(Array.from({ length: 60 }, () => invite(seller)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 200);
    expect(new Set(refused.map((a) => a.status))).toEqual(new Set([429]));
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(refused[0]?.body.message).toMatch(
      /^Your account has sent 20 team invites in the last hour, the most an hour\. You can send another in \d+ minutes\.$/,
    );
    // nothing of a refused invite: no member, no mail
    expect(await teamSize(sellerId)).toBe(membersBefore + 20);
    expect((await readOutbox(s.db, { limit: 10_000 })).length).toBe(mailsBefore + 20);
    // a resent invite is an invite too
    const one = answers.find((a) => a.status === 200)?.body.data as { id: number };
    const resend = await call(s, 'POST', '/settings/my-teams/update', seller, {
      member_id: one.id,
      resend_invite: true,
    });
    expect(resend.status).toBe(429);
    // the next hour may send again
    s.clock.advance(cap.windowMs + 1000);
    expect((await invite(await s.loginAs('seller@demo.test'))).status).toBe(200);
    rival = await s.loginAs('rival@demo.test');
  });

  it('keeps a team at 25 members at most, invited ones included (409), however many ask at once', async () => {
    const cap = QUOTAS['team-size'];
    expect(cap.max).toBe(25);
    const owner = await s.db.selectFrom('users').selectAll().where('id', '=', rivalId).executeTakeFirstOrThrow();
    const now = s.clock.now().toISOString();
    // fill the team to one place short of the cap with members made directly
    for (let i = await teamSize(rivalId); i < cap.max - 1; i++) {
      await s.db
        .insertInto('users')
        .values({
          ...{ ...owner, id: undefined },
          email: `filler-${i}@example.test`,
          user_type: 'team_members',
          team_owner_id: rivalId,
          user_token: newUserToken(),
          created_at: now,
        })
        .execute();
    }
    const answers = await Promise.all(Array.from({ length: 8 }, () => invite(rival)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(new Set(refused.map((a) => a.status))).toEqual(new Set([409]));
    expect(refused[0]?.body.message).toBe(
      'Your team has 25 members (invited ones included), the most a team may have. Remove a member to invite another.',
    );
    expect(await teamSize(rivalId)).toBe(cap.max);
  });
});
