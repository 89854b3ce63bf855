import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { type ActiveSession, SESSIONS_LOAD_ERROR, sessionsMachine } from '../../../machines/sessions.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Panel, PanelFailed, PanelLoading } from './settings-parts';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : 'not yet';

/** My Account › Active sessions (machines/sessions.machine.ts): the list, End one, Log out everywhere. */
export function SessionsSection() {
  const flow = useViewActor(sessionsMachine, 'sessions');
  const state = useSelector(flow, (s) => s);
  let body: React.ReactNode;
  if (!flow || !state || state.hasTag('loading')) body = <PanelLoading label="Loading your sessions" rows={2} />;
  else if (state.matches('failed'))
    body = <PanelFailed message={SESSIONS_LOAD_ERROR} onRetry={() => flow.send({ type: 'retry' })} />;
  else {
    const busy = state.hasTag('busy');
    const others = state.context.sessions.filter((s) => !s.current).length;
    body = (
      <div className={css({ display: 'grid', gap: '3' })}>
        <ul aria-label="Sessions" className={css({ display: 'grid', gap: '2' })}>
          {state.context.sessions.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              busy={busy}
              onEnd={() => flow.send({ type: 'session.end.requested', id: session.id })}
            />
          ))}
        </ul>
        {state.matches('confirmingOthers') ? (
          <div role="alertdialog" aria-label="Log out everywhere" className={css({ display: 'grid', gap: '2' })}>
            <p>Log out of every other session? They will need to log in again; this one stays.</p>
            <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
              <Button onClick={() => flow.send({ type: 'others.end.confirmed' })}>Log out everywhere</Button>
              <Button tone="ghost" onClick={() => flow.send({ type: 'others.end.cancelled' })}>
                Cancel
              </Button>
            </div>
          </div>
        ) : (
          <div>
            <Button
              tone="secondary"
              busy={state.matches('endingOthers')}
              disabled={busy || others === 0}
              onClick={() => flow.send({ type: 'others.end.requested' })}
            >
              Log out everywhere
            </Button>
          </div>
        )}
      </div>
    );
  }
  return (
    <Panel label="Active sessions">
      <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>Active sessions</h2>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        Where your account is logged in. A session lasts 24 hours; 'Log out everywhere' ends every one but this.
      </p>
      {body}
    </Panel>
  );
}

function SessionItem({ session, busy, onEnd }: { session: ActiveSession; busy: boolean; onEnd: () => void }) {
  return (
    <li
      data-testid="session-row"
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'space-between',
        gap: '2',
        border: '1px solid {colors.border}',
        borderRadius: 'md',
        p: '3',
        minWidth: 0,
      })}
    >
      <div className={css({ minWidth: 0 })}>
        <p className={css({ fontWeight: 'bold' })}>
          {session.device ?? 'Unknown browser'}
          {session.current ? ' · this session' : ''}
        </p>
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          {session.client ? `From ${session.client} · ` : ''}Started {when(session.created_at)} · Last used{' '}
          {when(session.last_used_at)}
        </p>
      </div>
      {session.current ? null : (
        <Button
          tone="ghost"
          disabled={busy}
          onClick={onEnd}
          aria-label={`End the session of ${session.device ?? 'an unknown browser'} started ${when(session.created_at)}`}
        >
          End
        </Button>
      )}
    </li>
  );
}
