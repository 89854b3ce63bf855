import type { StoredSession } from '../../openapi/auth-cookies';
import type { SessionStore } from '../session.machine';

/** An in-memory SessionStore that records what the machine did to it. */
export function fakeStore(initial: StoredSession | null = null) {
  let stored = initial;
  const calls: string[] = [];
  const store: SessionStore = {
    read: () => stored,
    save: (s) => {
      calls.push('save');
      stored = s;
    },
    clear: () => {
      calls.push('clear');
      stored = null;
    },
  };
  return {
    store,
    calls,
    get stored() {
      return stored;
    },
  };
}

/** A store whose content never changes, for path generation (the model must not carry side effects). */
export function frozenStore(content: StoredSession | null): SessionStore {
  return { read: () => content, save: () => {}, clear: () => {} };
}
