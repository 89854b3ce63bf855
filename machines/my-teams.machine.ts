import * as v from 'valibot';
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { acceptTeamInviteBody, addTeamMemberBody, updateTeamMemberBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import { createListMachine } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type TeamMember = components['schemas']['TeamMember'];
export type PermissionName = components['schemas']['PermissionName'];

/** Spec section 8: the settings calls' default message; team add shows the server's own (its error body). */
export const REQUEST_FAILED = 'Request failed';

/** The full permission list (spec section 6), in the menu's order, grouped for the invite and edit forms. */
export const PERMISSION_GROUPS: ReadonlyArray<{
  label: string;
  permissions: ReadonlyArray<{ name: PermissionName; label: string; hint: string }>;
}> = [
  {
    label: 'Account',
    permissions: [
      { name: 'settings', label: 'Settings', hint: 'Settings pages, this team included' },
      { name: 'dashboard', label: 'Dashboard', hint: 'The dashboard' },
      { name: 'notification', label: 'Notifications', hint: 'Notifications and the activity log' },
    ],
  },
  {
    label: 'Selling',
    permissions: [
      { name: 'event', label: 'Listings', hint: 'Add, my and bulk listings' },
      { name: 'sales', label: 'Sales', hint: 'Sales and their orders' },
      { name: 'reports', label: 'Reports', hint: 'Report history' },
    ],
  },
  {
    label: 'Money and buying',
    permissions: [
      { name: 'lmt-pay', label: 'SB Pay', hint: 'The wallet, payouts and stored cards' },
      { name: 'lmt-trade', label: 'Search Tickets', hint: 'Search and buy tickets' },
    ],
  },
];
export const PERMISSION_ORDER: readonly PermissionName[] = PERMISSION_GROUPS.flatMap((g) =>
  g.permissions.map((p) => p.name),
);
export const permissionLabel = (name: PermissionName) =>
  PERMISSION_GROUPS.flatMap((g) => g.permissions).find((p) => p.name === name)?.label ?? name;
/** The names a member is granted, in the list's order. */
export const grantedOf = (member: TeamMember): PermissionName[] =>
  member.permissions.filter((p) => p.is_can_access === 1).map((p) => p.name);

const newKey = () => globalThis.crypto.randomUUID();
const header = () => ({ header: { 'Idempotency-Key': newKey() } });

/** The team of the seller the caller works for (one call, no paging), newest first. */
export const teamListMachine = createListMachine<TeamMember, Record<string, never>>({
  id: 'teamList',
  fetchPage: async (_request, signal) => {
    const items = unwrap(await api.GET('/settings/my-teams', { signal }), REQUEST_FAILED).my_teams;
    return { items, page: 1, lastPage: 1, total: items.length };
  },
  keyOf: (m) => m.id,
  errorMessage: () => REQUEST_FAILED,
  toastsErrors: () => true,
});

const NAME_WORDS = {
  required: 'Enter the name.',
  pattern: 'Enter the name.',
  maxLength: 'Use at most 100 characters.',
};
const inviteFields = addTeamMemberBody(
  formMessages({
    email: {
      required: 'Enter an email address.',
      minLength: 'Enter a valid email address, like name@example.com.',
      format: 'Enter a valid email address, like name@example.com.',
      maxLength: 'An email address has at most 254 characters.',
    },
    first_name: NAME_WORDS,
    last_name: NAME_WORDS,
  }),
);
export const inviteLimits = fieldLimits(inviteFields);

export interface InviteValues {
  email: string;
  first_name: string;
  last_name: string;
  permissions: PermissionName[];
}
export const EMPTY_INVITE: InviteValues = { email: '', first_name: '', last_name: '', permissions: [] };

/** Invite by email: the server's refusal (an address with an account, a permission the caller lacks) shows as sent. */
export const inviteFormMachine = createFormMachine({
  id: 'inviteForm',
  schema: inviteFields,
  submit: async (body, signal): Promise<TeamMember> =>
    unwrap(await api.POST('/settings/my-teams/add', { body, params: header(), signal }), REQUEST_FAILED),
});

const memberFields = updateTeamMemberBody(formMessages({ first_name: NAME_WORDS, last_name: NAME_WORDS }));
export const memberLimits = fieldLimits(memberFields);

export interface MemberValues {
  member_id: number;
  first_name: string;
  last_name: string;
  permissions: PermissionName[];
}
export const valuesOfMember = (m: TeamMember): MemberValues => ({
  member_id: m.id,
  first_name: m.first_name,
  last_name: m.last_name,
  permissions: grantedOf(m),
});

/** Edit a member's name and permissions. */
export const memberFormMachine = createFormMachine({
  id: 'memberForm',
  schema: memberFields,
  submit: async (body, signal): Promise<TeamMember> =>
    unwrap(await api.POST('/settings/my-teams/update', { body, params: header(), signal }), REQUEST_FAILED),
});

const acceptFields = acceptTeamInviteBody(
  formMessages({
    token: { required: 'This invite link is not complete. Open the link from the email again.' },
    password: {
      required: 'Choose a password.',
      minLength: 'Use at least 8 characters.',
      maxLength: 'A password has at most 128 characters.',
    },
    password_confirmation: {
      required: 'Type the password again.',
      maxLength: 'A password has at most 128 characters.',
    },
  }),
);
export const acceptLimits = fieldLimits(acceptFields);
export const PASSWORDS_DIFFER = 'The passwords do not match.';

/** /signup/invite/{token}: the invited member chooses its password (the token is the page's, a hidden value). */
export const acceptInviteFormMachine = createFormMachine({
  id: 'acceptInviteForm',
  schema: v.pipe(
    acceptFields,
    v.forward(
      v.partialCheck(
        [['password'], ['password_confirmation']],
        (input) => input.password === input.password_confirmation,
        PASSWORDS_DIFFER,
      ),
      ['password_confirmation'],
    ),
  ),
  submit: async (body, signal): Promise<{ email: string }> =>
    unwrap(await api.POST('/settings/my-teams/accept-invite', { body, signal }), REQUEST_FAILED),
});

export interface MyTeamsContext {
  /** What the invite form opens with. */
  invite: InviteValues;
  /** The member being edited, as loaded for the form. */
  draft: MemberValues | null;
  /** The member an edit, removal or new invite is about. */
  target: TeamMember | null;
}

export type MyTeamsEvent =
  | { type: 'invite.opened' }
  | { type: 'member.editing'; member: TeamMember }
  | { type: 'form.closed' }
  | { type: 'remove.requested'; member: TeamMember }
  | { type: 'remove.confirmed' }
  | { type: 'remove.cancelled' }
  | { type: 'resend.requested'; member: TeamMember };

const failureText = (error: unknown) => (error instanceof Error && error.message ? error.message : REQUEST_FAILED);

/**
 * Settings › My Teams: the team (the shared list machine, child `teamList`), Invite member (the shared form
 * machine: email, names, permissions from the full list), Edit (the member is read again, then the form),
 * Remove after a confirmation (the member's sessions end at once), and a new invite link for a member who has
 * not accepted yet. Every change reloads the list; a refusal of a form shows the server's message in the form.
 */
export const myTeamsMachine = setup({
  types: {
    context: {} as MyTeamsContext,
    events: {} as MyTeamsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    teamList: teamListMachine,
    inviteForm: inviteFormMachine,
    memberForm: memberFormMachine,
    loadMember: fromPromise<TeamMember, number>(async ({ input, signal }) =>
      unwrap(
        await api.GET('/settings/my-teams/edit', { params: { query: { member_id: input } }, signal }),
        REQUEST_FAILED,
      ),
    ),
    removeMember: fromPromise<unknown, number>(async ({ input, signal }) =>
      unwrap(
        await api.POST('/settings/my-teams/delete', { body: { member_id: input }, params: header(), signal }),
        REQUEST_FAILED,
      ),
    ),
    resendInvite: fromPromise<TeamMember, number>(async ({ input, signal }) =>
      unwrap(
        await api.POST('/settings/my-teams/update', {
          body: { member_id: input, resend_invite: true },
          params: header(),
          signal,
        }),
        REQUEST_FAILED,
      ),
    ),
  },
  actions: {
    startInvite: assign({ invite: EMPTY_INVITE }),
    pickTarget: assign(({ event }) =>
      event.type === 'member.editing' || event.type === 'remove.requested' || event.type === 'resend.requested'
        ? { target: event.member }
        : {},
    ),
    storeDraft: assign((_, member: TeamMember) => ({ draft: valuesOfMember(member), target: member })),
    forget: assign({ target: null, draft: null }),
    reloadList: enqueueActions(({ enqueue, system }) => {
      const list = system.get('teamList');
      if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
    }),
    notifyInvited: emit((_, member: TeamMember) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `Invite sent to ${member.email}.`,
    })),
    notifySaved: emit({ type: 'notify', level: 'success', message: 'Team member saved.' } as const),
    notifyRemoved: emit({ type: 'notify', level: 'success', message: 'Team member removed and logged out.' } as const),
    notifyResent: emit((_, member: TeamMember) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `A new invite was sent to ${member.email}.`,
    })),
    notifyFailure: emit((_, error: unknown) => notifyError(failureText(error))),
  },
}).createMachine({
  id: 'myTeams',
  context: { invite: EMPTY_INVITE, draft: null, target: null },
  invoke: { id: 'teamList', systemId: 'teamList', src: 'teamList', input: { filters: {} } },
  initial: 'browsing',
  states: {
    browsing: {
      description: 'The team with Invite member, Edit, Remove and Send invite again.',
      on: {
        'invite.opened': { target: 'inviting', actions: 'startInvite' },
        'member.editing': { target: 'loadingMember', actions: 'pickTarget' },
        'remove.requested': { target: 'confirmingRemove', actions: 'pickTarget' },
        'resend.requested': { target: 'resending', actions: 'pickTarget' },
      },
    },
    inviting: {
      description: "The Invite member dialog: email, names and permissions; a refusal shows the server's message.",
      invoke: {
        id: 'inviteForm',
        systemId: 'inviteForm',
        src: 'inviteForm',
        input: ({ context }) => ({ values: context.invite }),
        onDone: {
          target: 'browsing',
          actions: [{ type: 'notifyInvited', params: ({ event }) => event.output }, 'reloadList'],
        },
      },
      on: { 'form.closed': 'browsing' },
    },
    loadingMember: {
      description: 'The member is read again (edit), so the form opens with what is stored now.',
      tags: ['busy'],
      invoke: {
        id: 'loadMember',
        src: 'loadMember',
        input: ({ context }) => context.target?.id ?? 0,
        onDone: { target: 'editing', actions: { type: 'storeDraft', params: ({ event }) => event.output } },
        onError: {
          target: 'browsing',
          actions: [
            { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
            'reloadList',
          ],
        },
      },
      on: { 'form.closed': { target: 'browsing', actions: 'forget' } },
    },
    editing: {
      description: 'The Edit member dialog: names and permissions.',
      invoke: {
        id: 'memberForm',
        systemId: 'memberForm',
        src: 'memberForm',
        input: ({ context }) => ({ values: context.draft as MemberValues }),
        onDone: { target: 'browsing', actions: ['notifySaved', 'forget', 'reloadList'] },
      },
      on: { 'form.closed': { target: 'browsing', actions: 'forget' } },
    },
    confirmingRemove: {
      description: 'Remove this member? Its sessions end at once. (Remove or Cancel)',
      on: {
        'remove.confirmed': 'removing',
        'remove.cancelled': { target: 'browsing', actions: 'forget' },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'removeMember',
        src: 'removeMember',
        input: ({ context }) => context.target?.id ?? 0,
        onDone: { target: 'browsing', actions: ['notifyRemoved', 'forget', 'reloadList'] },
        onError: {
          target: 'browsing',
          actions: [
            { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
          ],
        },
      },
    },
    resending: {
      tags: ['busy'],
      invoke: {
        id: 'resendInvite',
        src: 'resendInvite',
        input: ({ context }) => context.target?.id ?? 0,
        onDone: {
          target: 'browsing',
          actions: [{ type: 'notifyResent', params: ({ event }) => event.output }, 'forget', 'reloadList'],
        },
        onError: {
          target: 'browsing',
          actions: [
            { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
          ],
        },
      },
    },
  },
});
