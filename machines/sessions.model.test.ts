import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type ActiveSession, type SessionsContext, sessionsMachine } from './sessions.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const row = (id: string, current: boolean): ActiveSession => ({
  id,
  current,
  created_at: '2026-11-23T06:00:00.000Z',
  last_used_at: '2026-11-23T06:10:00.000Z',
  expires_at: '2026-11-24T06:00:00.000Z',
  device: 'Chrome on Linux',
  user_agent: 'Mozilla/5.0',
  client: '203.0.113.7',
});
const mine = row('a'.repeat(32), true);
const other = row('b'.repeat(32), false);

const events = [
  { type: 'xstate.done.actor.loadSessions', output: [mine, other] },
  { type: 'xstate.done.actor.loadSessions', output: [mine] },
  { type: 'xstate.error.actor.loadSessions', error: new ApiError(0, 'Failed to load your sessions.') },
  { type: 'retry' },
  { type: 'refresh' },
  { type: 'session.end.requested', id: other.id },
  { type: 'xstate.done.actor.endSession', output: { sessions_ended: 1 } },
  { type: 'xstate.error.actor.endSession', error: new ApiError(404, 'No such session.') },
  { type: 'others.end.requested' },
  { type: 'others.end.cancelled' },
  { type: 'others.end.confirmed' },
  { type: 'xstate.done.actor.endOthers', output: { sessions_ended: 1 } },
  { type: 'xstate.error.actor.endOthers', error: new ApiError(500, 'down') },
];

describe('active sessions statechart, model-based', () => {
  const identity = ({ value, context }: { value: unknown; context: SessionsContext }) => [
    value,
    context.sessions.length,
    context.ending,
    context.error,
  ];
  const paths = modelPaths(sessionsMachine, { events, identity });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(sessionsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['loadSessions', 'endSession', 'endOthers'] as const);
      const actor = createActor(sessionsMachine.provide({ actors: control.actors }));
      const toasts: string[] = [];
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        if (real.matches('ending')) expect(control.pending('endSession')?.input).toBe(other.id);
        else expect(real.context.ending).toBeNull();
        if (real.matches('failed')) expect(real.context.error).toBe('Failed to load your sessions.');
        if (real.hasTag('busy')) expect(real.matches('ending') || real.matches('endingOthers')).toBe(true);
      });
      const last = path.steps.at(-1)?.event.type;
      if (last === 'xstate.done.actor.endOthers')
        expect(toasts.at(-1)).toBe('Logged out everywhere else: 1 session ended.');
      if (last === 'xstate.error.actor.endSession') expect(toasts.at(-1)).toBe('No such session.');
      actor.stop();
      await flush();
    });
  }
});
