import { resolve } from 'node:path';

export type LogFormat = 'json' | 'pretty';

export interface Config {
  port: number;
  /** `HOST`: the interface to listen on; 127.0.0.1 (this machine only) unless told otherwise. */
  host: string;
  dataDir: string;
  databaseFile: string;
  /** `DATABASE_URL`: a postgres:// URL runs on PostgreSQL instead of the SQLite file. */
  databaseUrl: string | null;
  staticDir: string;
  logLevel: string;
  /** `LOG_FORMAT`: readable lines on a terminal, JSON lines otherwise, unless set. */
  logFormat: LogFormat;
  /**
   * `TRUST_PROXY`: how many proxies in front of the server may be believed about the client's address
   * (X-Forwarded-For) and the request id; 0 (the default) believes none.
   */
  trustProxy: number;
  /**
   * `VALIDATE_RESPONSES`: check every answer against the contract and turn one off the contract into a 500
   * (on in `npm run dev` and the browser tests; off for `npm start`, where a user would pay for the check).
   */
  validateResponses: boolean;
  /**
   * `ANSWER_CACHE`: 0 (or off, false, no) keeps no answers of the `x-cache-ms` reads, so that every call runs its
   * queries (to measure them); on by default.
   */
  answerCache: boolean;
  /**
   * The trade search and the event page from answers shared by every buyer (server/domain/catalog-answers.ts):
   * off with ANSWER_CACHE off, or with ANSWER_CACHE=caller (answers kept per caller only, to compare).
   */
  sharedAnswers: boolean;
}

/** A start-up problem the person starting the server can fix: printed as one line, without a stack. */
export class StartupError extends Error {}

function parseTrustProxy(raw: string | undefined): number {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'no') return 0;
  if (value === 'true' || value === 'yes') return 1;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
    throw new StartupError(
      `TRUST_PROXY must be the number of proxies in front of the server (0, 1, 2...), not "${raw}"`,
    );
  }
  return hops;
}

function parseLogFormat(raw: string | undefined, isTty: boolean): LogFormat {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return isTty ? 'pretty' : 'json';
  if (value === 'json' || value === 'pretty') return value;
  throw new StartupError(`LOG_FORMAT must be json or pretty, not "${raw}"`);
}

/** Every setting has a default, so `npm start` needs none. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, isTty = Boolean(process.stdout.isTTY)): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`PORT must be a port number, not "${env.PORT}"`);
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir,
    databaseFile: resolve(dataDir, 'portal.sqlite'),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: parseLogFormat(env.LOG_FORMAT, isTty),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    validateResponses: ['1', 'true', 'yes'].includes((env.VALIDATE_RESPONSES ?? '').trim().toLowerCase()),
    answerCache: !['0', 'off', 'false', 'no'].includes((env.ANSWER_CACHE ?? '').trim().toLowerCase()),
    sharedAnswers: !['0', 'off', 'false', 'no', 'caller'].includes((env.ANSWER_CACHE ?? '').trim().toLowerCase()),
  };
}

/**
 * The payment gateways' settings (issue 9). Without keys every gateway is the sandbox, so `npm start` needs none:
 * STRIPE_SECRET_KEY (with STRIPE_PUBLISHABLE_KEY_GBP and STRIPE_PUBLISHABLE_KEY_OTHER) switches card payments to
 * Stripe; STRIPE_WEBHOOK_SECRET opens the webhook; ADYEN_API_KEY with ADYEN_MERCHANT_ACCOUNT switches stored
 * cards to Adyen (ADYEN_ENVIRONMENT test or live, ADYEN_LIVE_URL_PREFIX for live, ADYEN_RETURN_URL).
 * STRIPE_API_BASE (e.g. http://127.0.0.1:12111) sends the Stripe client's calls to another base than
 * https://api.stripe.com: a local fake of the PaymentIntents API (server/testing/stripe-fake.ts, the e2e server)
 * or stripe-mock, so that the stripe gateway runs end to end on a machine without Stripe's network.
 */
export interface PaymentSettings {
  stripe: {
    secretKey: string;
    publishableKeyGbp: string;
    publishableKeyOther: string;
    /** STRIPE_API_BASE as the `stripe` client takes it; absent: Stripe's own API */
    apiBase?: StripeApiBase;
  } | null;
  stripeWebhookSecret: string | null;
  adyen: {
    apiKey: string;
    merchantAccount: string;
    live: boolean;
    liveUrlPrefix: string | null;
    returnUrl: string;
  } | null;
}

export interface StripeApiBase {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** `STRIPE_API_BASE`: an http(s) origin (no path), as host, port and protocol for `new Stripe(key, {...})`. */
export function parseStripeApiBase(raw: string): StripeApiBase {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new StartupError(`STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, not "${raw}"`);
  }
  const protocol = url.protocol.slice(0, -1);
  if ((protocol !== 'http' && protocol !== 'https') || url.pathname !== '/' || url.search || url.username) {
    throw new StartupError(`STRIPE_API_BASE must be an http(s) origin such as http://127.0.0.1:12111, not "${raw}"`);
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
    protocol,
  };
}

export function readPaymentSettings(env: NodeJS.ProcessEnv = process.env): PaymentSettings {
  const value = (name: string) => env[name]?.trim() || null;
  const secretKey = value('STRIPE_SECRET_KEY');
  let stripe: PaymentSettings['stripe'] = null;
  if (secretKey) {
    const gbp = value('STRIPE_PUBLISHABLE_KEY_GBP');
    const other = value('STRIPE_PUBLISHABLE_KEY_OTHER');
    if (!gbp || !other) {
      throw new StartupError(
        'STRIPE_SECRET_KEY needs STRIPE_PUBLISHABLE_KEY_GBP and STRIPE_PUBLISHABLE_KEY_OTHER (the browser keys by currency)',
      );
    }
    const apiBase = value('STRIPE_API_BASE');
    stripe = {
      secretKey,
      publishableKeyGbp: gbp,
      publishableKeyOther: other,
      ...(apiBase ? { apiBase: parseStripeApiBase(apiBase) } : {}),
    };
  }
  const apiKey = value('ADYEN_API_KEY');
  let adyen: PaymentSettings['adyen'] = null;
  if (apiKey) {
    const merchantAccount = value('ADYEN_MERCHANT_ACCOUNT');
    if (!merchantAccount) throw new StartupError('ADYEN_API_KEY needs ADYEN_MERCHANT_ACCOUNT');
    const environment = (value('ADYEN_ENVIRONMENT') ?? 'test').toLowerCase();
    if (environment !== 'test' && environment !== 'live') {
      throw new StartupError(`ADYEN_ENVIRONMENT must be test or live, not "${env.ADYEN_ENVIRONMENT}"`);
    }
    adyen = {
      apiKey,
      merchantAccount,
      live: environment === 'live',
      liveUrlPrefix: value('ADYEN_LIVE_URL_PREFIX'),
      returnUrl: value('ADYEN_RETURN_URL') ?? 'http://localhost:8080/trade/purchase',
    };
  }
  return { stripe, stripeWebhookSecret: value('STRIPE_WEBHOOK_SECRET'), adyen };
}
