/**
 * What a person typed into the prerendered login form (the HTML of /login, scripts/prerender-pages.tsx) before
 * the app's script ran and rendered its own form in its place. The prerendered fields are kept (a field taken
 * out of the page keeps its value) and read when the app's form mounts, in the same task as the swap: what was
 * typed up to the last moment goes on, and so does the focus.
 */
export interface TypedBeforeStart {
  email: string;
  password: string;
  focused: 'email' | 'password' | null;
}

type Field = 'email' | 'password';

let kept: { email: HTMLInputElement; password: HTMLInputElement; focused: Field | null } | null = null;

/** Finds the prerendered form in `root`, if there is one, before the app renders over it (/login's bytes count). */
export function keepTypedBeforeStart(root: HTMLElement) {
  const email = root.querySelector<HTMLInputElement>('input[name=email]');
  const password = root.querySelector<HTMLInputElement>('input[name=password]');
  if (!email || !password) return;
  const form = { email, password, focused: null as Field | null };
  // the field last focused, or none once another element took the focus (a field taken out of the page
  // keeps its claim: no element takes it)
  const track = (target: unknown) => {
    form.focused = target === email ? 'email' : target === password ? 'password' : null;
  };
  track(document.activeElement);
  root.addEventListener('focusin', (event) => track(event.target));
  kept = form;
}

/** The values typed before the app started, once: the login form takes them as it mounts. */
export function takeTypedBeforeStart(): TypedBeforeStart | null {
  if (!kept) return null;
  const { email, password, focused } = kept;
  kept = null;
  return { email: email.value, password: password.value, focused: email.isConnected ? null : focused };
}
