import { lazy, type ReactNode, Suspense, useDeferredValue, useEffect } from 'react';
import { css } from 'styled-system/css';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { createActor } from 'xstate';
import { type PageProfile, sessionMachine } from '../../machines/session.machine';
import { cookieSessionStore } from '../../openapi/auth-cookies';
import { LoginPage } from '../features/auth/login-page';
import { inspectFlows } from '../lib/flows-live';
import { nextTask } from '../lib/next-task';
import { useDocumentTitle } from '../lib/use-document-title';
import { documentTitle, href, paths, routes, safeNext } from '../routes';
import { Button } from '../ui/button';
import { FullPageLoader } from '../ui/full-page-loader';
import { lazyLoaded } from './lazy-loaded';
import { LoadBoundary, LoadFailed } from './load-boundary';
import { NotifyBridge } from './notify-bridge';
import { accountPages, preloadRoute, shellModules } from './pages';
import { Session, type SessionActor } from './session';

const ShellLayout = lazyLoaded(shellModules.layout);
const Gated = lazyLoaded(shellModules.gated);
const SignupPage = lazy(() => accountPages().then((m) => ({ default: m.SignupPage })));
const VerifyEmailPage = lazy(() => accountPages().then((m) => ({ default: m.VerifyEmailPage })));
const ForgotPasswordPage = lazy(() => accountPages().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => accountPages().then((m) => ({ default: m.ResetPasswordPage })));
const InvitePage = lazy(() => accountPages().then((m) => ({ default: m.InvitePage })));
const UnlockAccountPage = lazy(() => accountPages().then((m) => ({ default: m.UnlockAccountPage })));
const KycIntroPage = lazy(() => accountPages().then((m) => ({ default: m.KycIntroPage })));
const AccessibilityPage = lazy(() => import('../features/access/accessibility-statement-page'));
// the toasts' code (sonner) loads with the first notice: /login stays within its budget
const Toasts = lazy(() => import('./toasts'));
const GalleryPage = __DEV_PAGES__ ? lazy(() => import('../features/dev-ui/gallery-page')) : null;

/**
 * The app's session, started before React's first render (where @xstate/react would start the actor of a
 * Provider given logic, in the effects after it): its first work, the stored session's check (the cookies and
 * storage cleared when it is gone) and the login form's actors, or the profile of a page opened with a live
 * session (from the page, else its three calls), is done before the first paint instead of in a long task after
 * it. src/main.tsx calls it in a task of its own, after the scripts' evaluation. The page's profile is the
 * element server/http/static.ts names PROFILE_ELEMENT_ID (the server's module is not the browser's to import).
 */
export function startSession(): SessionActor {
  // a page opened with a session carries its profile (server/http/static.ts): the portal opens without its calls
  let profile: PageProfile | null = null;
  try {
    profile = JSON.parse(document.getElementById('sb-profile')?.textContent || 'null');
  } catch {
    // a page rewritten on its way (a proxy, an extension): the session makes the calls
  }
  const session = createActor(sessionMachine, {
    input: { store: cookieSessionStore, profile },
    inspect: inspectFlows,
  }).start();
  // a page opened with a live session: its chunks load at once (beside the profile calls when it has to make
  // them), in a task of its own: finding the route and starting its imports is a few milliseconds more
  if (!session.getSnapshot().matches('loggedOut') && window.location.pathname !== paths.login) {
    const path = window.location.pathname;
    nextTask(() => preloadRoute(path));
  }
  return session;
}

export function App({ session }: { session: SessionActor }) {
  return (
    <Session.Provider actor={session}>
      <NotifyBridge toasts={Toasts} />
      <Switch>
        <Route path={paths.login}>
          <LoginRoute />
        </Route>
        {/* spec section 2's public routes: open with or without a session */}
        <Route path={routes.signup.pattern}>
          <PublicPage>
            <SignupPage />
          </PublicPage>
        </Route>
        <Route path={routes.verifyEmail.pattern}>
          {(params: { token: string }) => (
            <PublicPage>
              <VerifyEmailPage token={params.token} />
            </PublicPage>
          )}
        </Route>
        <Route path={routes.accessibility.pattern}>
          <PublicPage>
            <AccessibilityPage />
          </PublicPage>
        </Route>
        <Route path={routes.forgotPassword.pattern}>
          <PublicPage>
            <ForgotPasswordPage />
          </PublicPage>
        </Route>
        <Route path={routes.resetPassword.pattern}>
          {(params: { token: string }) => (
            <PublicPage>
              <ResetPasswordPage token={params.token} />
            </PublicPage>
          )}
        </Route>
        <Route path={routes.unlockAccount.pattern}>
          {(params: { token: string }) => (
            <PublicPage>
              <UnlockAccountPage token={params.token} />
            </PublicPage>
          )}
        </Route>
        <Route path={routes.invite.pattern}>
          {(params: { token: string }) => (
            <PublicPage>
              <InvitePage token={params.token} />
            </PublicPage>
          )}
        </Route>
        {GalleryPage ? (
          <Route path="/dev/ui">
            <LoadBoundary>
              <Suspense fallback={<FullPageLoader />}>
                <GalleryPage />
              </Suspense>
            </LoadBoundary>
          </Route>
        ) : null}
        <Route>
          <RequireSession>
            {/* the shell's own chunk: when it fails there is no shell to keep, so the message takes the page */}
            <LoadBoundary fallback={(error) => <FullPageFailure error={error} />}>
              <Suspense fallback={<FullPageLoader />}>
                <ShellLayout>
                  <Gated />
                </ShellLayout>
              </Suspense>
            </LoadBoundary>
          </RequireSession>
        </Route>
      </Switch>
    </Session.Provider>
  );
}

/** A public page's own chunk, with its loader and its failure message. */
function PublicPage({ children }: { children: ReactNode }) {
  return (
    <LoadBoundary fallback={(error) => <FullPageFailure error={error} />}>
      <Suspense fallback={<FullPageLoader />}>{children}</Suspense>
    </LoadBoundary>
  );
}

function LoginRoute() {
  const search = useSearch();
  const loggedIn = Session.useSelector((s) => s.matches('loggedIn'));
  const profileFailed = Session.useSelector((s) => s.matches('profileFailed'));
  const loadingProfile = Session.useSelector((s) => s.matches('loadingProfile'));
  const isAdmin = Session.useSelector((s) => s.context.account?.user_type === 'admin');
  const next =
    safeNext(new URLSearchParams(search).get('next')) ?? (isAdmin ? routes.adminHome.href({}) : paths.dashboard);
  // the login was accepted: the next page's chunks load beside the profile calls
  useEffect(() => {
    if (loadingProfile) preloadRoute(next);
  }, [loadingProfile, next]);
  if (loggedIn) return <Redirect to={next} replace />;
  if (profileFailed) return <ProfileFailed />;
  return <LoginPage />;
}

/** Pages behind the login: a loader while the session settles, /login (coming back here after) when there is none. */
function RequireSession({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const search = useSearch();
  const state = Session.useSelector((s) =>
    s.matches('loggedIn')
      ? 'in'
      : s.matches({ loggedOut: 'signedOut' })
        ? 'signedOut'
        : s.matches('loggedOut')
          ? 'out'
          : s.matches('profileFailed')
            ? 'failed'
            : 'loading',
  );
  // the shell renders in a transition once the session is in: React builds it in slices of a few milliseconds,
  // the browser free between them, instead of in one long task (150-700 ms at a phone's speed when the profile
  // and the page's chunks are there at once: the longest task of a page opened on /dashboard); the loader stays
  // until it is built
  const inSession = state === 'in';
  const shellReady = useDeferredValue(inSession, false);
  if (inSession) return shellReady ? <>{children}</> : <FullPageLoader />;
  if (state === 'signedOut') return <Redirect to={paths.login} replace />;
  // /kyc-verification is public (spec section 2): without a session it says what the check asks and how to start
  if (state === 'out' && location === routes.kycVerification.pattern)
    return (
      <PublicPage>
        <KycIntroPage />
      </PublicPage>
    );
  if (state === 'out') return <Redirect to={href.login(`${location}${search ? `?${search}` : ''}`)} replace />;
  if (state === 'failed') return <ProfileFailed />;
  return <FullPageLoader />;
}

/** The shell itself did not load: the message and Reload on an otherwise empty page. */
function FullPageFailure({ error }: { error: unknown }) {
  return (
    <main className={css({ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: '4', bg: 'bg.subtle' })}>
      <LoadFailed error={error} />
    </main>
  );
}

const PROFILE_FAILED = 'Error loading account details';

function ProfileFailed() {
  useDocumentTitle(documentTitle(PROFILE_FAILED));
  const session = Session.useActorRef();
  const message = Session.useSelector((s) => s.context.error);
  return (
    <main className={css({ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: '4' })}>
      <div role="alert" className={css({ textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '4' })}>
        <h1 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{PROFILE_FAILED}</h1>
        {message && message !== PROFILE_FAILED ? <p>{message}</p> : null}
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'center' })}>
          <Button onClick={() => session.send({ type: 'profile.retried' })}>Retry</Button>
          <Button tone="secondary" onClick={() => session.send({ type: 'logout.requested' })}>
            Logout
          </Button>
        </div>
      </div>
    </main>
  );
}
