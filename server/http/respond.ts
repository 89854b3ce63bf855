import type { Context } from 'hono';
import type { AppEnv } from '../contract/router';
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
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { ...API_HEADERS, 'X-Request-Id': c.get('requestId'), ...headers },
  });
}

/**
 * An answer whose text is already written: a kept answer's JSON (server/http/answer-cache.ts), or a text answer
 * whose headers say its type (the metrics).
 */
export function apiText(
  c: Context<AppEnv>,
  text: string,
  status: number,
  headers?: Readonly<Record<string, string>>,
): Response {
  return new Response(text, { status, headers: { ...API_HEADERS, 'X-Request-Id': c.get('requestId'), ...headers } });
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
