import createClient, { type Middleware } from 'openapi-fetch';
import { cookieSessionStore, pageToken, SORT_CACHE_KEY } from './auth-cookies';
import type { components, paths } from './schema';

export type FieldError = components['schemas']['FieldError'];

export interface PortalClientOptions {
  baseUrl?: string;
  fetch?: (request: Request) => Promise<Response>;
  /** The bearer token to send, read at each call. */
  getToken?: () => string | null;
  /** Called when a call that carried a token answers 401, with that token. */
  onUnauthorized?: (token: string) => void;
}

/** The one typed client of the contract: call sites are typed by the path alone. */
export function createPortalClient(options: PortalClientOptions = {}) {
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '/api', fetch: options.fetch });
  const auth: Middleware = {
    onRequest({ request }) {
      const token = options.getToken?.();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
    onResponse({ request, response }) {
      const sent = request.headers.get('Authorization')?.replace(/^Bearer /, '');
      if (response.status === 401 && sent) options.onUnauthorized?.(sent);
      return response;
    },
  };
  client.use(auth);
  return client;
}

export type PortalClient = ReturnType<typeof createPortalClient>;

/**
 * The spec: a 401 clears the sort cache and reloads the page. We also drop the dead session's cookies,
 * otherwise the reload would restore the same rejected token and loop; but only when they hold the token refused:
 * an old tab's refused token must not log out the session another tab has started since.
 */
export function reloadAfterUnauthorized(rejected: string) {
  globalThis.localStorage?.removeItem(SORT_CACHE_KEY);
  const stored = cookieSessionStore.read(globalThis.document?.cookie ?? '');
  if (!stored || stored.token === rejected) cookieSessionStore.clear();
  globalThis.location?.reload();
}

/**
 * `fetch`, each call in a task of its own: a page asks for several calls in one go (the dashboard's six widgets
 * and the menu's two counts as it opens), and each `fetch()` is a round trip to the browser's network service
 * (4-7 ms a call at Lighthouse's phone speed on a loaded machine: 44 ms of the longest task of /dashboard). Sent
 * one per task, they run between the browser's other work instead of lengthening the task that asked for them.
 * The order of the calls is kept; what a call answers is not changed.
 */
export function fetchInOwnTask(send: (request: Request) => Promise<Response> = (r) => globalThis.fetch(r)) {
  const waiting: Array<() => void> = [];
  let channel: MessageChannel | undefined;
  return (request: Request): Promise<Response> => {
    if (typeof MessageChannel === 'undefined') return send(request);
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => waiting.shift()?.();
    }
    const port = channel.port2;
    return new Promise<void>((ready) => {
      waiting.push(ready);
      port.postMessage(null);
    }).then(() => send(request));
  };
}

/** The browser session's token and 401 handling, shared by the client and the uploader (openapi/upload.ts). */
export const browserAuth = {
  getToken: pageToken,
  onUnauthorized: reloadAfterUnauthorized,
} satisfies PortalClientOptions;

export const api: PortalClient = createPortalClient({ ...browserAuth, fetch: fetchInOwnTask() });

/** The envelope's message of a failed call, or the spec's generic text when there is none. */
export function messageOf(error: unknown, fallback = 'An unexpected error occurred. Please try again later.'): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) {
    return error.message;
  }
  return fallback;
}

/** An error that remembers the HTTP status of the call that failed, and a 422's field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The 422's `errors`: JSON pointers into the request (`/body/email`) and what is wrong there. */
    readonly errors: readonly FieldError[] = [],
    /** The whole error body, for refusals that carry more than `errors` (a bulk upload's row report). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** The `errors` of a 422 envelope, when the body has them. */
export function fieldErrorsOf(body: unknown): FieldError[] {
  if (!body || typeof body !== 'object' || !('errors' in body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter((e): e is FieldError => !!e && typeof e.path === 'string' && typeof e.message === 'string');
}

/** Unwraps an openapi-fetch result: the envelope's data, or an ApiError with the server's message. */
export function unwrap<T>(
  result: { data?: { data?: T } | undefined; error?: unknown; response: Response },
  fallback?: string,
): T {
  if (result.data?.data !== undefined) return result.data.data;
  throw new ApiError(result.response.status, messageOf(result.error, fallback), fieldErrorsOf(result.error));
}

type JsonOk<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
/** The `data` of an operation's 200 answer: `DataOf<'/dashboard/activity', 'get'>`. */
export type DataOf<P extends keyof paths, M extends keyof paths[P]> =
  JsonOk<paths[P][M]> extends { data?: infer D } ? NonNullable<D> : never;
