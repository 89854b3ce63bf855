import { css } from 'styled-system/css';

export const ACCESS_DENIED_TEXT =
  "You don't have permission to access this page. Please contact your administrator if you believe this is an error.";

/** The blocked-access view: any page outside the allowed set. */
export function AccessDenied() {
  return (
    <section
      role="alert"
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '5', desktop: '8' }, display: 'grid', gap: '2' })}
    >
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Access Denied</h2>
      <p className={css({ color: 'ink.700' })}>{ACCESS_DENIED_TEXT}</p>
    </section>
  );
}
