import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  grantedOf,
  type InviteValues,
  type inviteFormMachine,
  inviteLimits,
  type memberFormMachine,
  memberLimits,
  myTeamsMachine,
  PERMISSION_GROUPS,
  type PermissionName,
  permissionLabel,
  REQUEST_FAILED,
  type teamListMachine,
} from '../../../machines/my-teams.machine';
import { selectAllowedPermissions } from '../../../machines/session.machine';
import { Session } from '../../app/session';
import { useViewActor } from '../../app/view-actor';
import { useFormActor } from '../../lib/use-form-actor';
import { Button } from '../../ui/button';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { formGrid, Panel, PanelEmpty, PanelFailed, PanelLoading } from './settings-parts';

type Teams = ActorRefFrom<typeof myTeamsMachine>;

/** /settings/my-teams: the members of the seller's team with their permissions; invite, edit, remove. */
export default function MyTeamsPage() {
  const teams = useViewActor(myTeamsMachine, 'settings-my-teams');
  return teams ? <MyTeams teams={teams} /> : <PanelLoading label="Loading your team" />;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.join() === b.join();

function MyTeams({ teams }: { teams: Teams }) {
  const list = useSelector(teams, (s) => s.children.teamList as ActorRefFrom<typeof teamListMachine> | undefined);
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const loading = useSelector(list, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(list, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(list, (s) => s?.matches('empty') ?? false);
  const busy = useSelector(teams, (s) => s.hasTag('busy'));
  const browsing = useSelector(teams, (s) => s.matches('browsing'));
  const confirming = useSelector(teams, (s) => (s.matches('confirmingRemove') ? s.context.target : null));
  const inviteForm = useSelector(
    teams,
    (s) => s.children.inviteForm as ActorRefFrom<typeof inviteFormMachine> | undefined,
  );
  const memberForm = useSelector(
    teams,
    (s) => s.children.memberForm as ActorRefFrom<typeof memberFormMachine> | undefined,
  );
  const editingName = useSelector(teams, (s) =>
    s.context.target ? `${s.context.target.first_name} ${s.context.target.last_name}` : '',
  );
  const own = Session.useSelector(selectAllowedPermissions, sameList);
  const ownId = Session.useSelector((s) => s.context.account?.id ?? null);

  return (
    <Panel label="My teams">
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
        <p className={css({ flex: '1 1 16rem', color: 'fg.muted', fontSize: 'sm' })}>
          The people who work in your account. Each one logs in with its own email address and sees only what you allow.
          You can give only the permissions you have yourself.
        </p>
        <Button disabled={!browsing} onClick={() => teams.send({ type: 'invite.opened' })}>
          Invite member
        </Button>
      </div>
      {failed ? (
        <PanelFailed message={REQUEST_FAILED} onRetry={() => list?.send({ type: 'list.retried' })} />
      ) : loading ? (
        <PanelLoading label="Loading your team" rows={3} />
      ) : empty ? (
        <PanelEmpty>No team members yet. Invite someone by email to share the work.</PanelEmpty>
      ) : (
        <ul aria-label="Team members" className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '3' })}>
          {items.map((m) => {
            const name = `${m.first_name} ${m.last_name}`;
            const granted = grantedOf(m);
            return (
              <li
                key={m.id}
                aria-label={name}
                className={css({
                  border: '1px solid {colors.border}',
                  borderRadius: 'md',
                  p: '4',
                  display: 'grid',
                  gap: '2',
                  minWidth: 0,
                })}
              >
                <div className={css({ display: 'flex', gap: '2', alignItems: 'baseline', flexWrap: 'wrap' })}>
                  <strong className={css({ overflowWrap: 'anywhere' })}>{name}</strong>
                  <span
                    className={css({
                      fontSize: 'xs',
                      fontWeight: 'semibold',
                      color: m.status === 'active' ? 'success' : 'fg.muted',
                    })}
                  >
                    {m.status === 'active' ? 'Active' : 'Invited'}
                  </span>
                </div>
                <p className={css({ overflowWrap: 'anywhere', fontSize: 'sm', color: 'fg.muted' })}>{m.email}</p>
                <p className={css({ fontSize: 'sm' })}>
                  {granted.length === 0 ? 'No permissions' : granted.map(permissionLabel).join(', ')}
                </p>
                {m.id === ownId ? (
                  <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>This is you.</p>
                ) : (
                  <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                    <Button
                      tone="secondary"
                      disabled={!browsing || busy}
                      aria-label={`Edit ${name}`}
                      onClick={() => teams.send({ type: 'member.editing', member: m })}
                    >
                      Edit
                    </Button>
                    {m.status === 'invited' ? (
                      <Button
                        tone="secondary"
                        disabled={!browsing || busy}
                        aria-label={`Send the invite to ${m.email} again`}
                        onClick={() => teams.send({ type: 'resend.requested', member: m })}
                      >
                        Send invite again
                      </Button>
                    ) : null}
                    <Button
                      tone="ghost"
                      disabled={!browsing || busy}
                      aria-label={`Remove ${name}`}
                      onClick={() => teams.send({ type: 'remove.requested', member: m })}
                    >
                      Remove
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Modal
        open={confirming !== null}
        title="Remove this team member?"
        onClose={() => teams.send({ type: 'remove.cancelled' })}
        footer={
          <FormFooter
            valid
            submitLabel="Remove"
            onSubmit={() => teams.send({ type: 'remove.confirmed' })}
            onCancel={() => teams.send({ type: 'remove.cancelled' })}
          />
        }
      >
        <p className={css({ overflowWrap: 'anywhere' })}>
          {confirming ? `${confirming.first_name} ${confirming.last_name} (${confirming.email})` : ''}
        </p>
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          They are logged out at once and can no longer log in. What they did stays in your logs.
        </p>
      </Modal>
      <Modal open={inviteForm !== undefined} title="Invite member" onClose={() => teams.send({ type: 'form.closed' })}>
        {inviteForm ? (
          <TeamMemberForm
            teams={teams}
            form={inviteForm}
            own={own}
            limits={inviteLimits}
            withEmail
            note="We email them a link to choose their password. The link works once, for 72 hours."
            submitLabel="Send invite"
          />
        ) : null}
      </Modal>
      <Modal
        open={memberForm !== undefined}
        title={`Edit ${editingName}`}
        onClose={() => teams.send({ type: 'form.closed' })}
      >
        {memberForm ? (
          <TeamMemberForm
            teams={teams}
            form={memberForm}
            own={own}
            limits={memberLimits}
            withEmail={false}
            note="A change applies to their next step in the portal; their menu follows when they reload."
            submitLabel="Save member"
          />
        ) : null}
      </Modal>
    </Panel>
  );
}

/** The full permission list in its groups, a checkbox each; those the caller lacks cannot be changed. */
function PermissionChoice({
  value,
  own,
  onChange,
}: {
  value: readonly PermissionName[];
  own: readonly PermissionName[];
  onChange: (next: PermissionName[]) => void;
}) {
  const toggle = (name: PermissionName, on: boolean) => {
    const next = new Set(value);
    if (on) next.add(name);
    else next.delete(name);
    onChange(PERMISSION_GROUPS.flatMap((g) => g.permissions.map((p) => p.name)).filter((n) => next.has(n)));
  };
  return (
    <fieldset className={css({ border: 'none', p: 0, m: 0, display: 'grid', gap: '3' })}>
      <legend className={css({ fontWeight: 'semibold', mb: '2' })}>Permissions</legend>
      <div className={formGrid}>
        {PERMISSION_GROUPS.map((group) => (
          <fieldset key={group.label} className={css({ border: 'none', p: 0, m: 0, display: 'grid', gap: '2' })}>
            <legend className={css({ fontSize: 'sm', color: 'fg.muted', mb: '1' })}>{group.label}</legend>
            {group.permissions.map((p) => {
              const mine = own.includes(p.name);
              return (
                <label
                  key={p.name}
                  className={css({
                    display: 'flex',
                    gap: '2',
                    alignItems: 'flex-start',
                    fontSize: 'sm',
                    opacity: mine ? 1 : 0.6,
                  })}
                >
                  <input
                    type="checkbox"
                    name="permissions"
                    value={p.name}
                    checked={value.includes(p.name)}
                    disabled={!mine}
                    onChange={(e) => toggle(p.name, e.target.checked)}
                  />
                  <span>
                    {p.label}
                    <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted' })}>
                      {mine ? p.hint : `${p.hint} (you do not have this permission)`}
                    </span>
                  </span>
                </label>
              );
            })}
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}

function Refusal({ message }: { message: string | null }) {
  return message ? (
    <div role="alert" className={css({ color: 'error', fontSize: 'sm', overflowWrap: 'anywhere' })}>
      {message}
    </div>
  ) : null;
}

/** The invite form (with the email) and the member form (names and permissions only) are one form. */
function TeamMemberForm({
  teams,
  form,
  own,
  limits,
  withEmail,
  note,
  submitLabel,
}: {
  teams: Teams;
  form: ActorRefFrom<typeof inviteFormMachine> | ActorRefFrom<typeof memberFormMachine>;
  own: readonly PermissionName[];
  limits: typeof inviteLimits;
  withEmail: boolean;
  note: string;
  submitLabel: string;
}) {
  const { values, errors, submitting, refusal, set, change, submit } = useFormActor<InviteValues>(form);
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'grid', gap: '4' })}>
      <Refusal message={refusal} />
      <div className={formGrid}>
        {withEmail ? (
          <TextField
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="off"
            maxLength={limits.email?.maxLength}
            value={values.email}
            error={errors.email}
            onChange={change('email')}
          />
        ) : null}
        <TextField
          label="First name"
          name="first_name"
          required
          maxLength={limits.first_name?.maxLength}
          value={values.first_name}
          error={errors.first_name}
          onChange={change('first_name')}
        />
        <TextField
          label="Last name"
          name="last_name"
          required
          maxLength={limits.last_name?.maxLength}
          value={values.last_name}
          error={errors.last_name}
          onChange={change('last_name')}
        />
      </div>
      <PermissionChoice value={values.permissions} own={own} onChange={(next) => set('permissions', next)} />
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{note}</p>
      <FormFooter
        valid={!submitting}
        submitting={submitting}
        submitLabel={submitLabel}
        onCancel={() => teams.send({ type: 'form.closed' })}
      />
    </form>
  );
}
