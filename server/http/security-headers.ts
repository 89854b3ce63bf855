const STRIPE_SCRIPT = 'https://js.stripe.com';
const STRIPE_FRAMES = ['https://js.stripe.com', 'https://hooks.stripe.com'];

const CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", STRIPE_SCRIPT],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https://*.stripe.com'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'", 'https://api.stripe.com'],
  'frame-src': STRIPE_FRAMES,
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'base-uri': ["'self'"],
  'object-src': ["'none'"],
};

/**
 * Headers on every response, computed once. The CSP allows our own origin plus what Stripe.js needs (its
 * script, its iframes, its API); styles allow 'unsafe-inline' because the toast library and Stripe inject style
 * attributes. They are set before the handler runs, so the handler's response is built with them (setting
 * headers on a finished response makes Hono copy it, once per header).
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  [
    'Content-Security-Policy',
    Object.entries(CSP)
      .map(([name, values]) => `${name} ${values.join(' ')}`)
      .join('; '),
  ],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
  ['Permissions-Policy', `camera=(), microphone=(), geolocation=(), payment=(self "${STRIPE_SCRIPT}")`],
];

/**
 * The headers of an API answer (JSON or a file, never a page): OWASP's set for REST answers. An answer of the API
 * runs no script, loads nothing and is never framed, so the page's policy (Stripe's origins, the referrer, the
 * browser's features) has nothing to say there: `default-src 'none'` refuses everything should a browser ever
 * render one, CORP keeps other origins from reading it, nosniff keeps it what its Content-Type says. Five
 * headers instead of the page's thirteen (about 150 bytes instead of 800) on every call, each name and value
 * checked by Node on every answer.
 */
export const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];
