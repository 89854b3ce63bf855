import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import type { paths } from '../../openapi/schema';
import { API_TOKEN_INVALID, API_TOKEN_PREFIX, authenticateApiToken, refuseOutOfScope } from '../auth/api-tokens';
import { type AuthUser, authenticate } from '../auth/session';
import type { Clock } from '../clock';
import { type Db, directSqlite } from '../db/database';
import { claimKey, type KeyOf, keepReply, requestHash } from '../db/idempotency';
import { inTransaction } from '../db/transaction';
import type { AnswerCache } from '../http/answer-cache';
import { envelopeOf, HttpError, KeptRefusal, MESSAGES, tooLarge } from '../http/errors';
import { ClientClosedRequest, receiveMultipart, removeFiles, type StoredFile } from '../http/multipart';
import { apiAnswer, apiStream, apiText } from '../http/respond';
import type { Logger } from '../logger';
import type { RequestFacts } from '../ops/request-facts';
import type { Quotas } from '../quotas/limits';
import { QuotaExceeded, refuseWhenSpent, spend } from '../quotas/quota';
import { type Contract, type FieldError, type HttpMethod, type Operation, validationMessage } from './contract';

export interface Deps {
  db: Db;
  clock: Clock;
  log: Logger;
  contract: Contract;
  /** Uploaded files live in `<dataDir>/uploads`, outside any served folder. */
  dataDir: string;
  /** Check every answer against the contract (tests, development): an answer off the contract becomes a 500. */
  validateResponses: boolean;
  /** How many proxies in front of us we trust to write X-Forwarded-For (TRUST_PROXY); 0 or absent: none. */
  trustedProxies?: number;
  /** Where the `x-cache-ms` reads keep their answers (server/http/answer-cache.ts); absent: nothing is kept. */
  answerCache?: AnswerCache;
  /**
   * The trade search and the event page from answers shared by every buyer, kept per event version
   * (server/domain/catalog-answers.ts); false: read for each caller (ANSWER_CACHE=caller, to compare).
   */
  sharedAnswers?: boolean;
  /** The caps in force (server/quotas/limits.ts QUOTAS; the hostile harness reaches each on an app of its own). */
  quotas: Quotas;
}

/** `facts`: what the request's log line and metrics say of it (server/ops/request-facts.ts); API requests only. */
export type AppEnv = { Variables: { requestId: string; facts: RequestFacts } };

/** The largest JSON body any call accepts; uploads declare their own limit. */
export const JSON_BODY_LIMIT = 32 * 1024;

type MethodsOf<P extends keyof paths> = {
  [M in HttpMethod]: [NonNullable<paths[P][M]>] extends [never] ? never : M;
}[HttpMethod];
type Op<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'text/plain': infer T } }
    ? T
    : never;
/** A file the contract answers as itself (`application/zip`): its bytes, streamed as they are made. */
export interface StreamedFile {
  contentType: string;
  stream: ReadableStream<Uint8Array>;
}
type AnswerOf<S, R> = R extends { content: { 'application/json': unknown } }
  ? { status: S; body: JsonOf<R>; headers?: Record<string, string> }
  : R extends { content: { 'application/zip': unknown } }
    ? { status: S; body: StreamedFile; headers?: Record<string, string> }
    : { status: S; body: JsonOf<R>; headers?: Record<string, string> };

/** What a handler may answer: exactly the statuses and bodies the contract lists for its operation. */
export type Reply<O> = O extends { responses: infer R }
  ? {
      [S in keyof R & number]: AnswerOf<S, R[S]>;
    }[keyof R & number]
  : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'multipart/form-data': infer F } } }
    ? F
    : undefined;
type ParamsOf<O, Where extends 'query' | 'path'> = O extends { parameters: { [K in Where]?: infer Q } }
  ? [Q] extends [never | undefined]
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;

export interface HandlerInput<O> {
  /** The JSON body, or the plain fields of a multipart body (coerced to their declared types). */
  body: BodyOf<O>;
  query: ParamsOf<O, 'query'>;
  params: ParamsOf<O, 'path'>;
  /** The files of a multipart body by field, stored and recorded in `files` in the call's transaction. */
  files: Record<string, StoredFile[]>;
  /** The caller; reading it on an operation without security is a programming error. */
  user: AuthUser;
  c: Context<AppEnv>;
}

export type Handler<O> = (input: HandlerInput<O>, deps: Deps) => Promise<Reply<O>> | Reply<O>;
interface AnyReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
/** A handler bound by operation id, without the contract's types: for the router's own test contract. */
export type LooseHandler = (input: HandlerInput<unknown>, deps: Deps) => Promise<AnyReply> | AnyReply;

const isStreamed = (body: unknown): body is StreamedFile =>
  typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream instanceof ReadableStream;

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;
const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** The KYC status that holds a caller: a seller's own, a team member's seller's (see auth/session). */
const heldKycStatus = (user: AuthUser): number => user.seller_kyc_status;

/**
 * Where a request carries the NUL character (U+0000): no text column stores it (Postgres refuses it outright),
 * and no field of ours has a use for it, so it is refused with the other validation errors.
 */
export function nulCharacters(value: unknown, path: string): FieldError[] {
  // iterative: a body may nest deeper than the call stack
  const found: FieldError[] = [];
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [item, at] = stack.pop() as [unknown, string];
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push({ path: at, message: 'must not contain the character U+0000' });
    } else if (Array.isArray(item)) {
      item.forEach((v, i) => {
        stack.push([v, `${at}/${i}`]);
      });
    } else if (item && typeof item === 'object') {
      for (const [k, v] of Object.entries(item)) {
        if (k.includes('\u0000')) found.push({ path: at, message: 'must not contain the character U+0000' });
        else stack.push([v, `${at}/${k}`]);
      }
    }
  }
  return found;
}

/** How much of an oversized body is read and thrown away so that its connection can carry the next request. */
const DRAIN_LIMIT = 1024 * 1024;

/**
 * Reads a JSON body up to the limit, without trusting Content-Length. An oversized body is read to its end
 * and discarded (up to DRAIN_LIMIT) before the 413, because giving up half-way would close the connection
 * and the next request on it would fail; a body larger still gets its 413 with `Connection: close`.
 */
async function readJsonText(c: Context<AppEnv>): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  // the server itself discards a body that was never read, so a declared size needs no draining here
  if (declared > JSON_BODY_LIMIT) throw tooLarge(JSON_BODY_LIMIT);
  // under @hono/node-server, from Node's own stream: asking the Request for its body makes node-server build a
  // whole WHATWG Request and a web stream over the socket (a tenth of a small call's CPU)
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.readableDidRead) return readIncoming(incoming);
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size <= JSON_BODY_LIMIT) chunks.push(value);
      else if (size > JSON_BODY_LIMIT + DRAIN_LIMIT) {
        await reader.cancel().catch(() => {});
        throw tooLarge(JSON_BODY_LIMIT, { Connection: 'close' });
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new ClientClosedRequest();
  }
  if (size > JSON_BODY_LIMIT) throw tooLarge(JSON_BODY_LIMIT);
  return Buffer.concat(chunks).toString('utf8');
}

/** readJsonText from Node's request stream, with the same limits and answers. */
function readIncoming(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (settle: () => void) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onClose);
      incoming.off('aborted', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= JSON_BODY_LIMIT) chunks.push(chunk);
      else if (size > JSON_BODY_LIMIT + DRAIN_LIMIT) {
        done(() => reject(tooLarge(JSON_BODY_LIMIT, { Connection: 'close' })));
      }
    };
    const onEnd = () =>
      done(() =>
        size > JSON_BODY_LIMIT
          ? reject(tooLarge(JSON_BODY_LIMIT))
          : resolve(
              chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
            ),
      );
    const onClose = () => done(() => reject(new ClientClosedRequest()));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onClose);
    incoming.on('aborted', onClose);
  });
}

/**
 * Binds handlers to the contract's operations. `route('/auth/login', 'post', handler)` only compiles when the
 * handler answers what the contract allows. At run time, before the handler: the token (when the operation has
 * security), the KYC hold, `x-role` and `x-permission`; then the path, query, header and body are validated
 * against the contract (multipart bodies streamed to disk with their limits). The handler runs inside one
 * transaction when the operation says `x-transaction`, and an `x-idempotent` operation keeps its first
 * successful reply under the caller's Idempotency-Key in that same transaction.
 */
/**
 * What an unsecured operation's handler finds as its user: reading anything of it says why there is none. One
 * per operation, made when it is mounted.
 */
export function noUser(op: Operation): AuthUser {
  return new Proxy({} as AuthUser, {
    get() {
      throw new Error(`${op.operationId} has no security: there is no user`);
    },
  });
}

export function createRouter(app: Hono<AppEnv>, deps: Deps) {
  const bound = new Set<Operation>();
  const uploadDir = join(deps.dataDir, 'uploads');

  async function caller(op: Operation, c: Context<AppEnv>): Promise<AuthUser | null> {
    if (!op.secured) return null;
    const header = c.req.header('authorization');
    if (!header) throw new HttpError(401, MESSAGES.loginRequired);
    const token = BEARER.exec(header)?.[1];
    const viaApi = token?.startsWith(API_TOKEN_PREFIX) === true;
    const user = !token
      ? null
      : viaApi
        ? await authenticateApiToken(deps.db, deps.clock, token)
        : await authenticate(deps.db, deps.clock, `Bearer ${token}`);
    if (!user) throw new HttpError(401, viaApi ? API_TOKEN_INVALID : MESSAGES.sessionExpired);
    // a seller's API token reaches only the operations of its scopes, never the portal's own (its tokens among them)
    refuseOutOfScope(user, op.apiScope);
    // the KYC hold on the server too: a seller without approved KYC (or a member of such a seller's team)
    // reaches only the calls the KYC page needs
    const held = (user.user_type === 'sellers' || user.user_type === 'team_members') && heldKycStatus(user) !== 1;
    if (held && !op.kycExempt) throw new HttpError(403, MESSAGES.kycRequired);
    if (op.role === 'admin' && user.user_type !== 'admin') throw new HttpError(403, MESSAGES.forbidden);
    if (op.role === 'seller' && user.user_type !== 'sellers') throw new HttpError(403, MESSAGES.forbidden);
    if (op.permission !== null && !user.permissions.has(op.permission)) throw new HttpError(403, MESSAGES.forbidden);
    return user;
  }

  function queryOf(op: Operation, c: Context<AppEnv>): Record<string, unknown> {
    const query: Record<string, unknown> = {};
    for (const [name, values] of Object.entries(c.req.queries())) {
      // a repeated scalar parameter stays a list, which its schema then refuses
      query[name] = op.arrayQuery.has(name) || values.length > 1 ? values : values[0];
    }
    return query;
  }

  function headersOf(op: Operation, c: Context<AppEnv>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const name of op.headers) {
      const value = c.req.header(name);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  async function bodyOf(op: Operation, c: Context<AppEnv>) {
    if (!op.bodyMediaType) return { body: undefined, files: {} as Record<string, StoredFile[]> };
    const encoding = c.req.header('content-encoding');
    if (encoding && encoding.trim().toLowerCase() !== 'identity') throw new HttpError(415, MESSAGES.encoded);
    if (op.bodyMediaType === 'multipart/form-data' && op.upload) {
      const received = await receiveMultipart(c.req.raw, op.upload, uploadDir);
      const errors = [...nulCharacters(received.fields, '/body'), ...op.validateFields(received.fields)];
      if (errors.length > 0) {
        removeFiles(received.files);
        throw new HttpError(422, validationMessage(errors), errors);
      }
      return { body: received.fields as unknown, files: received.files };
    }
    const text = await readJsonText(c);
    if (text.length === 0 && !op.bodyRequired) return { body: undefined, files: {} };
    if (mediaTypeOf(c.req.header('content-type')) !== 'application/json') throw new HttpError(415, MESSAGES.needsJson);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, MESSAGES.invalidJson);
    }
    const errors = [...nulCharacters(body, '/body'), ...op.validateBody(body)];
    if (errors.length > 0) throw new HttpError(422, validationMessage(errors), errors);
    return { body, files: {} };
  }

  async function recordFiles(db: Db, op: Operation, user: AuthUser | null, files: Record<string, StoredFile[]>) {
    const rows = Object.values(files)
      .flat()
      .map((f) => ({
        id: f.id,
        owner_id: user?.id ?? 0,
        operation_id: op.operationId,
        field: f.field,
        kind: f.kind,
        mime: f.mime,
        size: f.size,
        sha256: f.sha256,
        original_name: f.originalName,
        created_at: deps.clock.now().toISOString(),
      }));
    if (rows.length > 0) await db.insertInto('files').values(rows).execute();
  }

  function check(op: Operation, reply: AnyReply): AnyReply {
    if (!deps.validateResponses) return reply;
    const problems = op.validateResponse(reply.status, reply.body);
    if (problems.length > 0) {
      deps.log.error({ operationId: op.operationId, problems }, 'an answer does not match the contract');
      throw new Error(`${op.operationId} answered off the contract: ${problems.join('; ')}`);
    }
    return reply;
  }

  /**
   * For an `x-cache-ms` read: its key and the database's version, read now (after the caller's check, which may
   * write, and before the handler's first query), and the text kept for them if any. Null when nothing may be
   * kept: no cache, PostgreSQL, or a transaction open on the connection.
   */
  function keptAnswerOf(op: Operation, c: Context<AppEnv>, user: AuthUser) {
    const cache = deps.answerCache;
    const connection = cache ? directSqlite(deps.db) : undefined;
    if (!cache || !connection) return null;
    const url = c.req.url;
    const key = `${op.operationId} ${user.id} ${url.slice(url.indexOf('/', url.indexOf('//') + 2))}`;
    const version = connection.version();
    const now = deps.clock.now().getTime();
    return { key, version, now, text: cache.get(key, version, now) };
  }

  function mount(op: Operation, run: LooseHandler) {
    const absentUser = noUser(op);
    const handle = async (c: Context<AppEnv>) => {
      let files: Record<string, StoredFile[]> = {};
      let keepFiles = false;
      const facts = c.get('facts');
      if (facts) facts.operation = op.operationId;
      try {
        const user = await caller(op, c);
        if (facts && user) facts.accountId = user.id;
        // a planned call answers 501 once the caller is checked, whatever it sends (its schemas may already be
        // designed for the browser to build on, while the handler is not written yet)
        if (op.planned) throw new HttpError(501, MESSAGES.notImplemented);
        const params = { ...c.req.param() } as Record<string, unknown>;
        const query = queryOf(op, c);
        const headers = headersOf(op, c);
        const errors = [
          ...nulCharacters(params, '/path'),
          ...nulCharacters(query, '/query'),
          ...op.validatePath(params),
          ...op.validateQuery(query),
          ...op.validateHeaders(headers),
        ];
        if (errors.length > 0) throw new HttpError(422, MESSAGES.validation, errors);
        // a seller whose day of uploads is spent is told so before its file is read and written
        const uploader = user && op.upload && op.quotas.has('upload-bytes') ? (user.team_owner_id ?? user.id) : null;
        if (uploader !== null) await refuseWhenSpent(deps, 'upload-bytes', uploader);
        const received = await bodyOf(op, c);
        files = received.files;
        // a plain object: a getter in this literal (it threw for an unsecured call's user) made V8 keep every
        // request's objects through two scavenges into the old space (--trace-gc under 50 clients: scavenges of
        // 16 ms promoting 3 MB each, against 1.2 ms without it; p99 29 ms against 13)
        const input = (db: Db) =>
          [
            { body: received.body, query, params, files, c, user: user ?? absentUser } as HandlerInput<unknown>,
            db === deps.db ? deps : { ...deps, db },
          ] as const;

        let reply: AnyReply;
        const kept = op.cacheMs > 0 && user ? keptAnswerOf(op, c, user) : null;
        if (kept?.text !== undefined) return apiText(c, kept.text, 200);
        if (!op.transaction) {
          reply = await run(...input(deps.db));
        } else {
          const key: KeyOf | null =
            op.idempotent && user
              ? { userId: user.id, operationId: op.operationId, key: String(headers['idempotency-key']) }
              : null;
          const hash = key
            ? requestHash({
                method: op.method,
                path: c.req.path,
                query,
                body: received.body,
                files: Object.values(files)
                  .flat()
                  .map((f) => [f.field, f.sha256]),
              })
            : '';
          let committedFiles = false;
          const keptRefusals = new WeakSet<AnyReply>();
          reply = await inTransaction(
            deps.db,
            async (trx) => {
              committedFiles = false;
              // a transaction run again starts its story again
              if (facts) {
                facts.outcome = null;
                facts.purchase = null;
                facts.money = null;
              }
              if (key) {
                const claim = await claimKey(trx, key, hash, deps.clock.now());
                if (claim.kind === 'mismatch') {
                  throw new HttpError(422, MESSAGES.idempotencyMismatch, [
                    { path: '/header/idempotency-key', message: 'was already used with a different request' },
                  ]);
                }
                if (claim.kind === 'replay') {
                  return { status: claim.status, body: claim.body, headers: { 'Idempotent-Replayed': 'true' } };
                }
              }
              await recordFiles(trx, op, user, files);
              let result: AnyReply;
              try {
                result = check(op, await run(...input(trx)));
              } catch (error) {
                // a call that carried files undoes everything, as any refusal does (its files are not kept)
                if (!(error instanceof KeptRefusal) || Object.keys(files).length > 0) throw error;
                // committed with what the handler wrote, and replayed as given: the cause is settled
                const refusal = check(op, { status: error.status, body: envelopeOf(error), headers: error.headers });
                keptRefusals.add(refusal);
                if (key) await keepReply(trx, key, refusal.status, refusal.body);
                return refusal;
              }
              // the bytes are counted once kept, last, so that the counter's row is held for the commit only
              const bytes = Object.values(files)
                .flat()
                .reduce((n, f) => n + f.size, 0);
              if (uploader !== null && bytes > 0 && result.status < 400)
                await spend({ ...deps, db: trx }, 'upload-bytes', uploader, bytes);
              if (key && result.status < 400) await keepReply(trx, key, result.status, result.body);
              committedFiles = result.status < 400;
              return result;
            },
            // an error reply undoes whatever the handler wrote (and the key stays free for a corrected retry)
            (result) => result.status < 400 || keptRefusals.has(result),
          );
          keepFiles = committedFiles;
        }
        reply = check(op, reply);
        if (kept && reply.status === 200 && !reply.headers) {
          const text = JSON.stringify(reply.body);
          // kept for half to all of its moment, at random: answers kept together (many buyers' searches after a
          // write) would otherwise all end together, and their reads all run again in the same instant
          const until = kept.now + op.cacheMs - Math.floor((Math.random() * op.cacheMs) / 2);
          deps.answerCache?.set(kept.key, { version: kept.version, until, text });
          return apiText(c, text, 200);
        }
        // a text answer (the metrics): the contract's only non-JSON bodies are strings
        if (typeof reply.body === 'string') return apiText(c, reply.body, reply.status, reply.headers);
        if (isStreamed(reply.body)) return apiStream(c, reply.body, reply.status, reply.headers);
        return apiAnswer(c, reply.body, reply.status, reply.headers);
      } catch (error) {
        if (deps.validateResponses && error instanceof QuotaExceeded && !op.quotas.has(error.quota)) {
          deps.log.error({ operationId: op.operationId, quota: error.quota }, 'an undeclared quota was enforced');
          throw new Error(`${op.operationId} enforced the cap ${error.quota}, which its x-quota does not name`);
        }
        if (deps.validateResponses && error instanceof HttpError && !op.responses.has(String(error.status))) {
          deps.log.error({ operationId: op.operationId, status: error.status }, 'an undeclared status was thrown');
          throw new Error(`${op.operationId} threw the undeclared status ${error.status}: ${error.message}`);
        }
        throw error;
      } finally {
        if (!keepFiles) removeFiles(files);
      }
    };
    app.on(op.method.toUpperCase(), op.routePath, handle);
    bound.add(op);
  }

  function bindOperation(op: Operation, handler: LooseHandler) {
    if (bound.has(op)) throw new Error(`${op.operationId} is bound twice`);
    if (op.planned) throw new Error(`${op.operationId} is marked x-status: planned; complete its schemas first`);
    mount(op, handler);
  }

  return {
    route<P extends keyof paths, M extends MethodsOf<P>>(path: P, method: M, handler: Handler<Op<P, M>>): void {
      const op = deps.contract.find(method, path);
      if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the contract`);
      bindOperation(op, handler as unknown as LooseHandler);
    },
    /** Binds by operation id without the contract's types (the router's own tests use a contract of their own). */
    bind(operationId: string, handler: LooseHandler): void {
      const op = deps.contract.byId(operationId);
      if (!op) throw new Error(`${operationId} is not in the contract`);
      bindOperation(op, handler);
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
