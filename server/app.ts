import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Clock } from './clock';
import { type Contract, loadContract } from './contract/contract';
import { type AppEnv, createRouter, type Deps } from './contract/router';
import type { Db } from './db/database';
import { envelopeOf, HttpError, MESSAGES } from './http/errors';
import { securityHeaders } from './http/security-headers';
import { builtApp } from './http/static';
import type { Logger } from './logger';
import { accountRoutes } from './routes/account';
import { authRoutes } from './routes/auth';
import { dashboardRoutes } from './routes/dashboard';
import { notificationRoutes } from './routes/notifications';
import { salesRoutes } from './routes/sales';
import { uiSettingsRoutes } from './routes/ui-settings';

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
}

let sharedContract: Contract | undefined;
function defaultContract(): Contract {
  sharedContract ??= loadContract();
  return sharedContract;
}

export function createApp(options: AppOptions) {
  const contract = options.contract ?? defaultContract();
  const deps: Deps = { db: options.db, clock: options.clock, log: options.log, contract };
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    if (c.req.path.startsWith('/api/')) {
      deps.log.info(
        {
          reqId: requestId,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  });
  app.use('*', securityHeaders());
  app.use('/api/*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  const api = new Hono<AppEnv>();
  const router = createRouter(api, deps);
  authRoutes(router);
  accountRoutes(router);
  dashboardRoutes(router);
  notificationRoutes(router);
  salesRoutes(router);
  uiSettingsRoutes(router);
  router.bindPlanned();
  api.get('/health', (c) => c.json({ success: true, message: 'ok' }));
  app.route('/api', api);

  const onError = (err: Error, c: import('hono').Context<AppEnv>) => {
    if (err instanceof HttpError) {
      return c.json(envelopeOf(err), err.status as ContentfulStatusCode, err.headers);
    }
    deps.log.error({ reqId: c.get('requestId'), err }, 'unhandled error');
    return c.json({ success: false, message: MESSAGES.unexpected }, 500);
  };
  app.onError(onError);
  api.onError(onError);

  // the built single-page app, from memory (server/http/static.ts); never for /api or /api/*
  const spa = options.staticDir ? builtApp(options.staticDir) : null;
  if (spa) app.use('*', spa);

  app.notFound((c) => {
    const path = c.req.path;
    if (path.startsWith('/api/')) {
      const sub = path.slice(4);
      const other = contract.operations.filter((op) =>
        new RegExp(`^${op.routePath.replace(/:[^/]+/g, '[^/]+')}$`).test(sub),
      );
      if (other.length > 0) {
        c.header('Allow', other.map((op) => op.method.toUpperCase()).join(', '));
        return c.json({ success: false, message: `${c.req.method} is not allowed on ${path}.` }, 405);
      }
    }
    return c.json({ success: false, message: `There is nothing at ${c.req.method} ${path}.` }, 404);
  });

  return app;
}
