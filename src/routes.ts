/** Every path of the app, written once. Views build links with these, never with string literals. */
export const paths = {
  login: '/login',
  dashboard: '/dashboard',
  myAccount: '/settings/myAccount',
  kyc: '/settings/kyc',
  notifications: '/notifications/home',
  tradeHome: '/trade/home',
  wallet: '/reports/wallet',
} as const;

/** Only a same-origin path may be a place to come back to after login (no `//evil.example`). */
export function safeNext(next: string | null | undefined): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  if (next === paths.login || next.startsWith(`${paths.login}?`)) return null;
  return next;
}

export const href = {
  login: (next?: string | null) => {
    const back = safeNext(next);
    return back ? `${paths.login}?next=${encodeURIComponent(back)}` : paths.login;
  },
  kycHandle: () => `${paths.kyc}?handle=true`,
};
