import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { paths } from '../../openapi/schema';
import { type AuthUser, authenticate } from '../auth/session';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { HttpError, MESSAGES, tooLarge } from '../http/errors';
import type { Logger } from '../logger';
import type { Contract, HttpMethod, Operation } from './contract';

export interface Deps {
  db: Db;
  clock: Clock;
  log: Logger;
  contract: Contract;
}

export type AppEnv = { Variables: { requestId: string } };

/** The largest JSON body any call accepts; uploads declare their own limit. */
export const JSON_BODY_LIMIT = 32 * 1024;

type MethodsOf<P extends keyof paths> = {
  [M in HttpMethod]: [NonNullable<paths[P][M]>] extends [never] ? never : M;
}[HttpMethod];
type Op<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** What a handler may answer: exactly the statuses and bodies the contract lists for its operation. */
export type Reply<O> = O extends { responses: infer R }
  ? {
      [S in keyof R & number]: { status: S; body: JsonOf<R[S]>; headers?: Record<string, string> };
    }[keyof R & number]
  : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : undefined;
type ParamsOf<O, Where extends 'query' | 'path'> = O extends { parameters: { [K in Where]?: infer Q } }
  ? [Q] extends [never | undefined]
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;

export interface HandlerInput<O> {
  body: BodyOf<O>;
  query: ParamsOf<O, 'query'>;
  params: ParamsOf<O, 'path'>;
  /** The caller; reading it on an operation without security is a programming error. */
  user: AuthUser;
  c: Context<AppEnv>;
}

export type Handler<O> = (input: HandlerInput<O>, deps: Deps) => Promise<Reply<O>> | Reply<O>;

/**
 * Binds handlers to the contract's operations. `route('/auth/login', 'post', handler)` only compiles when
 * the handler answers what the contract allows, and at run time the request is authenticated (when the
 * operation has security) and validated against the contract before the handler runs.
 */
export function createRouter(app: Hono<AppEnv>, deps: Deps) {
  const bound = new Set<Operation>();

  function mount(
    op: Operation,
    run: (input: HandlerInput<unknown>) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>,
  ) {
    const limit = bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw tooLarge(JSON_BODY_LIMIT);
      },
    });
    const handle = async (c: Context<AppEnv>) => {
      let user: AuthUser | null = null;
      if (op.secured) {
        const header = c.req.header('authorization');
        if (!header) throw new HttpError(401, MESSAGES.loginRequired);
        user = await authenticate(deps.db, deps.clock, header);
        if (!user) throw new HttpError(401, MESSAGES.sessionExpired);
        // the KYC gate on the server too: a seller without approved KYC reaches only the KYC page's calls
        if (user.user_type === 'sellers' && user.kyc_status !== 1 && !op.kycExempt) {
          throw new HttpError(403, MESSAGES.kycRequired);
        }
        if (op.permission !== null && !user.permissions.has(op.permission)) {
          throw new HttpError(403, MESSAGES.forbidden);
        }
      }
      const params = { ...c.req.param() } as Record<string, unknown>;
      const query = { ...c.req.query() } as Record<string, unknown>;
      const errors = [...op.validatePath(params), ...op.validateQuery(query)];
      let body: unknown;
      if (op.bodyMediaType === 'application/json') {
        const text = await c.req.text();
        if (text.length > 0 || op.bodyRequired) {
          if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
            throw new HttpError(415, MESSAGES.needsJson);
          }
          try {
            body = JSON.parse(text);
          } catch {
            throw new HttpError(400, MESSAGES.invalidJson);
          }
          errors.push(...op.validateBody(body));
        }
      }
      if (errors.length > 0) throw new HttpError(422, MESSAGES.validation, errors);
      const input = {
        body,
        query,
        params,
        c,
        get user(): AuthUser {
          if (!user) throw new Error(`${op.operationId} has no security: there is no user`);
          return user;
        },
      } as HandlerInput<unknown>;
      const reply = await run(input);
      return c.json(reply.body, reply.status as ContentfulStatusCode, reply.headers);
    };
    // a call without a body never reads one, so only calls with a body need the limit
    if (op.bodyMediaType) app.on(op.method.toUpperCase(), op.routePath, limit, handle);
    else app.on(op.method.toUpperCase(), op.routePath, handle);
    bound.add(op);
  }

  return {
    route<P extends keyof paths, M extends MethodsOf<P>>(path: P, method: M, handler: Handler<Op<P, M>>): void {
      const op = deps.contract.find(method, path);
      if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the contract`);
      if (bound.has(op)) throw new Error(`${op.operationId} is bound twice`);
      mount(
        op,
        async (input) => handler(input as HandlerInput<Op<P, M>>, deps) as Promise<{ status: number; body: unknown }>,
      );
    },
    /** Every operation of the contract that has no handler yet answers 501 with the envelope. */
    bindPlanned(): Operation[] {
      const planned = deps.contract.operations.filter((op) => !bound.has(op));
      for (const op of planned) {
        mount(op, async () => {
          throw new HttpError(501, MESSAGES.notImplemented);
        });
      }
      return planned;
    },
  };
}

export type Router = ReturnType<typeof createRouter>;
