import type { Context } from 'hono';
import type { AppEnv } from '../contract/router';
import { compressAnswer } from './compress';
import { API_SECURITY_HEADERS } from './security-headers';

/** What every answer of the API carries besides its request id: the API's security headers, no caching, JSON. */
const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(API_SECURITY_HEADERS),
  'Cache-Control': 'no-store',
  'Content-Type': 'application/json',
});

/**
 * An answer of the API, its headers one plain object. Hono's `c.header()` and `c.json()` keep headers in a
 * fetch `Headers` (names checked, lower-cased and sorted on every set, then copied out again for Node's
 * `writeHead`), which cost the real server's answers about as much as the bare app's whole answer; a plain
 * object goes to `writeHead` as it is (@hono/node-server's light Response). Every answer under /api is made
 * here: a handler's reply, an error, a 404, 405, /api/health.
 */
export function apiAnswer(
  c: Context<AppEnv>,
  body: unknown,
  status: number,
  headers?: Readonly<Record<string, string>>,
): Response {
  if (body === null)
    return new Response(null, { status, headers: { ...API_HEADERS, 'X-Request-Id': c.get('requestId'), ...headers } });
  return apiText(c, JSON.stringify(body), status, headers);
}

/**
 * An answer whose text is already written: a kept answer's JSON (server/http/answer-cache.ts), or a text answer
 * whose headers say its type (the metrics). From 1 KB it goes compressed to a client that accepts brotli or gzip.
 */
export function apiText(
  c: Context<AppEnv>,
  text: string,
  status: number,
  headers?: Readonly<Record<string, string>>,
): Response {
  // compressed from 1 KB when the client accepts it (server/http/compress.ts)
  const sent = compressAnswer(c.req.header('accept-encoding'), text);
  return new Response(sent.body, {
    status,
    headers: { ...API_HEADERS, 'X-Request-Id': c.get('requestId'), ...headers, ...sent.headers },
  });
}

/** A file streamed as it is made (a data export): the API's headers, its own type, never cached. */
export function apiStream(
  c: Context<AppEnv>,
  file: { contentType: string; stream: ReadableStream<Uint8Array> },
  status: number,
  headers?: Readonly<Record<string, string>>,
): Response {
  return new Response(file.stream, {
    status,
    headers: { ...API_HEADERS, 'Content-Type': file.contentType, 'X-Request-Id': c.get('requestId'), ...headers },
  });
}
