import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { Clock } from './clock';
import { type Contract, loadContract } from './contract/contract';
import { type AppEnv, createRouter, type Deps, type Router } from './contract/router';
import type { Db } from './db/database';
import { type ESign, esignFrom } from './esign';
import { AnswerCache } from './http/answer-cache';
import { envelopeOf, HttpError, MESSAGES } from './http/errors';
import { ClientClosedRequest } from './http/multipart';
import { profileForPage } from './http/page-profile';
import { apiAnswer } from './http/respond';
import { SECURITY_HEADERS } from './http/security-headers';
import { builtApp } from './http/static';
import type { Logger } from './logger';
import { mailerFrom } from './mail';
import type { Mailer } from './mail/port';
import { mailAttachment, mailViewer } from './mail/viewer';
import { createMetrics } from './ops/metrics';
import { createReadiness } from './ops/readiness';
import { currentRequest, newFacts, outcomeOf } from './ops/request-facts';
import { paymentsFrom } from './payments';
import type { Payments } from './payments/port';
import { QUOTAS, type Quotas } from './quotas/limits';
import { accountRoutes } from './routes/account';
import { accountDataRoutes } from './routes/account-data';
import { accountFlowRoutes } from './routes/account-flows';
import { adminEventRoutes, adminPriceCapRoutes, adminRoutes } from './routes/admin';
import { adminBankRoutes } from './routes/admin-bank';
import { adminHomeRoutes } from './routes/admin-home';
import { authRoutes } from './routes/auth';
import { dashboardRoutes } from './routes/dashboard';
import { disputeRoutes } from './routes/disputes';
import { kycRoutes } from './routes/kyc';
import { listingsRoutes } from './routes/listings';
import { myTeamsRoutes } from './routes/my-teams';
import { notificationRoutes } from './routes/notifications';
import { type OpsDeps, opsRoutes } from './routes/ops';
import { payoutRoutes } from './routes/payouts';
import { reportsRoutes } from './routes/reports';
import { salesRoutes } from './routes/sales';
import { seatAlertRoutes } from './routes/seat-alerts';
import { sellerApiRoutes } from './routes/seller-api';
import { sessionRoutes } from './routes/sessions';
import { settingsAccountRoutes } from './routes/settings-account';
import { settingsCardRoutes } from './routes/settings-cards';
import { settingsExtraRoutes } from './routes/settings-extra';
import { settingsTradeRoutes } from './routes/settings-trade';
import { tradeRoutes } from './routes/trade';
import { twoFactorRoutes } from './routes/two-factor';
import { uiSettingsRoutes } from './routes/ui-settings';
import { walletRoutes } from './routes/wallet';

export interface AppOptions {
  db: Db;
  clock: Clock;
  log: Logger;
  contract?: Contract;
  /** The built SPA to serve beside the API; none in API-only tests. */
  staticDir?: string;
  /** Where uploaded files are kept (under `uploads/`), outside any served folder. */
  dataDir?: string;
  /** Check every answer against the contract's response schema (tests and development). */
  validateResponses?: boolean;
  /**
   * A proxy we trust sets X-Request-Id (and X-Forwarded-For); otherwise the server makes its own ids. A number
   * is how many proxies are in front (TRUST_PROXY); `true` is one.
   */
  trustProxy?: boolean | number;
  /**
   * Where the `x-cache-ms` reads keep their answers: a cache of their own by default, null for none (ANSWER_CACHE=0,
   * for measuring the reads themselves).
   */
  answerCache?: AnswerCache | null;
  /** The trade search and event page from answers shared by every buyer (on by default; see Deps). */
  sharedAnswers?: boolean;
  /** Binds these handlers instead of the product's (the router's own tests, on a test contract of their own). */
  routes?: (router: Router) => void;
  /** The payment gateways; by default those the environment configures (server/payments, sandbox without keys). */
  payments?: Payments;
  /** Where mail goes; by default SMTP when `SMTP_URL` is set, else the outbox (server/mail). */
  mailer?: Mailer;
  /** The app's public origin for links in mail (APP_URL); never taken from a request's Host. */
  appUrl?: string;
  /** Serve the development mail viewer at /dev/mail (only with the outbox; server/main.ts decides). */
  mailViewer?: boolean;
  /** The e-signature adapter of the seller contract; by default Zoho Sign when configured, else the sandbox. */
  esign?: ESign;
  /** The caps in force: server/quotas/limits.ts's by default (the hostile harness lowers one at a time). */
  quotas?: Quotas;
  /**
   * Readiness, metrics and the cluster's questions (server/main.ts gives its own, to drain readiness when it
   * stops); by default a readiness of the database and data folder alone, and metrics of the app's own.
   */
  ops?: Partial<OpsDeps>;
}

let sharedContract: Contract | undefined;
function defaultContract(): Contract {
  sharedContract ??= loadContract();
  return sharedContract;
}

export function createApp(options: AppOptions) {
  const contract = options.contract ?? defaultContract();
  const deps: Deps = {
    db: options.db,
    clock: options.clock,
    log: options.log,
    contract,
    dataDir: options.dataDir ?? join(tmpdir(), 'sb-portal-data'),
    validateResponses: options.validateResponses ?? false,
    trustedProxies: Number(options.trustProxy ?? 0),
    answerCache: options.answerCache === null ? undefined : (options.answerCache ?? new AnswerCache()),
    quotas: options.quotas ?? QUOTAS,
    sharedAnswers: options.sharedAnswers ?? true,
  };
  const app = new Hono<AppEnv>();
  const ops: OpsDeps = {
    ...options.ops,
    readiness: options.ops?.readiness ?? createReadiness({ db: deps.db, dataDir: deps.dataDir }),
    metrics: options.ops?.metrics ?? createMetrics(),
  };
  const { metrics } = ops;

  // The request id and the log line of every request; the headers of every answer: an API answer gets them as
  // one plain object (server/http/respond.ts), anything else (the app's files) before its handler, so that its
  // response is built with them once (headers set on a finished response make Hono copy it for each one).
  app.use('*', async (c, next) => {
    const offered = c.req.header('x-request-id');
    // a client's own id is trusted only from a proxy we trust; otherwise it would forge our log lines
    const requestId = options.trustProxy && offered && /^[\w.:-]{1,64}$/.test(offered) ? offered : randomUUID();
    c.set('requestId', requestId);
    const isApi = c.req.path === '/api' || c.req.path.startsWith('/api/');
    if (!isApi) {
      c.header('X-Request-Id', requestId);
      for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
      return next();
    }
    const started = performance.now();
    // what the router and the handler learn of the request: its log line says it, and so does every line
    // written while it runs (server/logger.ts reads it back)
    const facts = newFacts(requestId);
    c.set('facts', facts);
    await currentRequest.run(facts, next);
    const status = c.res.status;
    const ms = performance.now() - started;
    metrics.request(facts.operation ?? 'unmatched', status, ms / 1000);
    const committed = status < 400;
    if (facts.purchase && committed) metrics.purchase(facts.purchase.method, facts.purchase.outcome);
    deps.log.info(
      {
        reqId: requestId,
        accountId: facts.accountId,
        operation: facts.operation,
        outcome: outcomeOf(facts, status),
        method: c.req.method,
        path: c.req.path,
        status,
        ms: Math.round(ms),
      },
      'request',
    );
    // money moved: at info with its amounts, once its transaction committed (an error answer undid it)
    if (facts.money && committed)
      for (const money of facts.money)
        deps.log.info(
          { reqId: requestId, accountId: facts.accountId, operation: facts.operation, money },
          `money: ${money.action}`,
        );
  });

  const mailer = options.mailer ?? mailerFrom(process.env, options.clock, options.log);
  if (options.mailViewer && mailer.kind === 'outbox') {
    app.get('/dev/mail', (c) => mailViewer(c, options.db));
    app.get('/dev/mail/attachments/:id', (c) => mailAttachment(c, options.db));
  }

  const api = new Hono<AppEnv>();
  const router = createRouter(api, deps);
  if (options.routes) options.routes(router);
  else {
    const accountMail = { mailer, appUrl: options.appUrl ?? process.env.APP_URL ?? 'http://localhost:8080' };
    authRoutes(router, accountMail);
    twoFactorRoutes(router);
    sessionRoutes(router);
    accountFlowRoutes(router, accountMail);
    accountRoutes(router);
    dashboardRoutes(router);
    notificationRoutes(router);
    uiSettingsRoutes(router);
    walletRoutes(router);
    adminRoutes(router);
    adminHomeRoutes(router);
    adminPriceCapRoutes(router);
    adminBankRoutes(router);
    adminEventRoutes(router);
    const payments = options.payments ?? paymentsFrom();
    tradeRoutes(router, payments);
    seatAlertRoutes(router);
    salesRoutes(router, payments);
    disputeRoutes(router, payments);
    reportsRoutes(router);
    settingsTradeRoutes(router, payments);
    settingsAccountRoutes(router);
    settingsCardRoutes(router, payments);
    myTeamsRoutes(router, {
      mailer,
      appUrl: options.appUrl ?? process.env.APP_URL ?? 'http://localhost:8080',
    });
    settingsExtraRoutes(router);
    accountDataRoutes(router);
    listingsRoutes(router);
    sellerApiRoutes(router);
    payoutRoutes(router, { mailer });
    kycRoutes(router, {
      esign: options.esign ?? esignFrom(),
      appUrl: options.appUrl ?? process.env.APP_URL ?? 'http://localhost:8080',
    });
    opsRoutes(router, ops);
  }
  router.bindPlanned();
  api.get('/health', (c) => apiAnswer(c, { success: true, message: 'ok' }, 200));
  app.route('/api', api);

  const onError = (err: Error, c: import('hono').Context<AppEnv>) => {
    if (err instanceof HttpError) {
      return apiAnswer(c, envelopeOf(err), err.status, err.headers);
    }
    if (err instanceof ClientClosedRequest) {
      // nobody is there to read an answer: not a failure of ours, so no stack and no 5xx in the logs
      deps.log.info({ reqId: c.get('requestId'), path: c.req.path }, 'the client closed the request');
      return apiAnswer(c, null, 499);
    }
    deps.log.error({ reqId: c.get('requestId'), err }, 'unhandled error');
    return apiAnswer(c, { success: false, message: MESSAGES.unexpected }, 500);
  };
  app.onError(onError);
  api.onError(onError);

  // the built single-page app, from memory (server/http/static.ts); never for /api or /api/*. A page opened with
  // a session carries its profile, answered by the API's own calls (server/http/page-profile.ts)
  const spa = options.staticDir ? builtApp(options.staticDir, { profileForPage: profileForPage(api, deps.log) }) : null;
  if (spa) app.use('*', spa);

  app.notFound((c) => {
    const path = c.req.path;
    if (path.startsWith('/api/')) {
      const sub = path.slice(4);
      const other = contract.operations.filter((op) =>
        new RegExp(`^${op.routePath.replace(/:[^/]+/g, '[^/]+')}$`).test(sub),
      );
      if (other.length > 0) {
        return apiAnswer(c, { success: false, message: `${c.req.method} is not allowed on ${path}.` }, 405, {
          Allow: other.map((op) => op.method.toUpperCase()).join(', '),
        });
      }
    }
    const missing = { success: false, message: `There is nothing at ${c.req.method} ${path}.` };
    return path === '/api' || path.startsWith('/api/') ? apiAnswer(c, missing, 404) : c.json(missing, 404);
  });

  return app;
}
