import type { Router } from '../contract/router';
import { endOtherSessions, endSession, listSessions } from '../domain/sessions';

/** The caller's active sessions, 'Log out everywhere' and ending one (issue 13, item 4; beyond the spec). */
export function sessionRoutes({ route }: Router) {
  route('/auth/sessions', 'get', async ({ user }, { db, clock }) => {
    const sessions = await listSessions(db, clock, user);
    return {
      status: 200,
      body: {
        success: true,
        message: sessions.length === 1 ? '1 active session.' : `${sessions.length} active sessions.`,
        data: { sessions },
      },
    };
  });

  route('/auth/sessions/logout-others', 'post', async ({ user }, { db, clock }) => {
    const ended = await endOtherSessions(db, clock, user);
    return {
      status: 200,
      body: {
        success: true,
        message:
          ended === 0
            ? 'No other session was active.'
            : `Logged out everywhere else: ${ended === 1 ? '1 session' : `${ended} sessions`} ended.`,
        data: { sessions_ended: ended },
      },
    };
  });

  route('/auth/sessions/{id}/end', 'post', async ({ user, params }, { db, clock }) => {
    const ended = await endSession(db, clock, user, params.id);
    if (!ended) return { status: 404, body: { success: false, message: 'No such session.' } };
    return {
      status: 200,
      body: {
        success: true,
        message: ended.current ? 'You are logged out.' : 'That session is logged out.',
        data: { sessions_ended: 1 },
      },
    };
  });
}
