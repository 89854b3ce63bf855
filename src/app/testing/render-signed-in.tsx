import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fakeStore } from '../../../machines/testing/fake-store';
import { Session } from '../session';

/** The page once the session's profile is in, as the gated routes show it (nothing before). */
function OnceSignedIn({ children }: { children: ReactNode }) {
  const signedIn = Session.useSelector((s) => s.context.account !== null);
  return signedIn ? children : null;
}

export interface SignedIn {
  /** The route to start at; without it, no router (the page reads no location). */
  path?: string;
  /** The stored session's user token: the profile's (`fakeProfile`) unless that says another. */
  userToken?: string;
  /** The clock of the session (now unless told). */
  now?: number;
}

/**
 * Renders a page as a signed-in user sees it in jsdom: a stored session (issued a second ago), the real session
 * actor reading its profile from the fake API (`fakeProfile`), the page once that is in. Returns Testing
 * Library's result, the fake store and the router's `navigate` (with `path`).
 */
export function renderSignedIn(page: ReactNode, { path, userToken = 'u7', now = Date.now() }: SignedIn = {}) {
  const store = fakeStore({ token: 't', userToken, issuedAt: now - 1000 });
  const location = path === undefined ? null : memoryLocation({ path });
  const tree = (
    <Session.Provider options={{ input: { store: store.store, now: () => now } }}>
      <OnceSignedIn>{page}</OnceSignedIn>
    </Session.Provider>
  );
  const result = render(location ? <Router hook={location.hook}>{tree}</Router> : tree);
  return { ...result, store, navigate: location?.navigate ?? (() => undefined) };
}
