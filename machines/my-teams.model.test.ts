import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  EMPTY_INVITE,
  grantedOf,
  myTeamsMachine,
  PASSWORDS_DIFFER,
  PERMISSION_ORDER,
  REQUEST_FAILED,
  type TeamMember,
  valuesOfMember,
} from './my-teams.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const member: TeamMember = {
  id: 12,
  member_id: 12,
  first_name: 'Tess',
  last_name: 'Team',
  email: 'tess@example.test',
  status: 'invited',
  invited_at: '2026-11-22T09:00:00.000Z',
  created_at: '2026-11-22T09:00:00.000Z',
  permissions: PERMISSION_ORDER.map((name) => ({
    name,
    is_can_access: name === 'sales' || name === 'dashboard' ? 1 : 0,
  })),
};

const events = [
  { type: 'invite.opened' },
  { type: 'member.editing', member },
  { type: 'form.closed' },
  { type: 'remove.requested', member },
  { type: 'remove.confirmed' },
  { type: 'remove.cancelled' },
  { type: 'resend.requested', member },
  { type: 'xstate.done.actor.inviteForm', output: member },
  { type: 'xstate.done.actor.loadMember', output: member },
  { type: 'xstate.error.actor.loadMember', error: new ApiError(404, 'This person is not a member of your team.') },
  { type: 'xstate.done.actor.memberForm', output: member },
  { type: 'xstate.done.actor.removeMember', output: { removed_id: 12, sessions_ended: 1 } },
  { type: 'xstate.error.actor.removeMember', error: new ApiError(500, REQUEST_FAILED) },
  { type: 'xstate.done.actor.resendInvite', output: member },
  { type: 'xstate.error.actor.resendInvite', error: new ApiError(409, 'This member has already accepted the invite.') },
];

describe('settings › my teams statechart, model-based', () => {
  const paths = modelPaths(myTeamsMachine, {
    events,
    settling: ['inviteForm', 'loadMember', 'memberForm', 'removeMember', 'resendInvite'],
    identity: ({ value, context }) => [value, context.target?.id ?? null, context.draft?.member_id ?? null],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(myTeamsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('a member opens in the edit form with its granted permissions, in the full list order', () => {
    expect(grantedOf(member)).toEqual(['dashboard', 'sales']);
    expect(valuesOfMember(member)).toEqual({
      member_id: 12,
      first_name: 'Tess',
      last_name: 'Team',
      permissions: ['dashboard', 'sales'],
    });
    expect(EMPTY_INVITE.permissions).toEqual([]);
    expect(PERMISSION_ORDER).toEqual([
      'settings',
      'dashboard',
      'notification',
      'event',
      'sales',
      'reports',
      'lmt-pay',
      'lmt-trade',
    ]);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors([
        'teamList',
        'inviteForm',
        'loadMember',
        'memberForm',
        'removeMember',
        'resendInvite',
      ] as const);
      const toasts: string[] = [];
      const actor = createActor(myTeamsMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          if (real.matches('loadingMember')) expect(control.pending('loadMember')?.input).toBe(12);
          if (real.matches('removing')) expect(control.pending('removeMember')?.input).toBe(12);
          if (real.matches('resending')) expect(control.pending('resendInvite')?.input).toBe(12);
          if (real.matches('editing')) expect(real.context.draft).toEqual(valuesOfMember(member));
          if (real.matches('browsing')) expect(real.context.target).toBeNull();
        },
      );
      actor.stop();
      await flush();
    });
  }
});

describe('the invite link form', () => {
  it('refuses two different passwords under the confirmation, and a short one', async () => {
    const { acceptInviteFormMachine } = await import('./my-teams.machine');
    const actor = createActor(acceptInviteFormMachine, {
      input: { values: { token: 'tok_123', password: 'Long-enough-1', password_confirmation: 'Other-one-22' } },
    });
    actor.start();
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().context.errors.password_confirmation).toBe(PASSWORDS_DIFFER);
    actor.send({ type: 'field.changed', field: 'password', value: 'short' });
    actor.send({ type: 'field.changed', field: 'password_confirmation', value: 'short' });
    await flush();
    expect(actor.getSnapshot().context.errors.password).toBe('Use at least 8 characters.');
    actor.stop();
  });
});
