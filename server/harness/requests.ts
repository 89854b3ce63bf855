import type { Op } from './contract-model';

/** What the harness sends: one request to one operation, and what it expects of the answer. */
export interface Attack {
  op: Op;
  /** What kind of case: blns, valid, invalid, raw, auth, role, multipart, idor, planned. */
  category: string;
  /** Which case, readable: `blns #12 into body.email`. */
  label: string;
  /** Whose token goes in `Authorization` (a principal's name); none for no header at all. */
  principal?: string;
  /** An exact `Authorization` header instead of a principal's token. */
  authorization?: string;
  path?: Record<string, string>;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  body?: Body;
  /**
   * The headers are the point of the case (a naughty or missing Idempotency-Key): sent as they are. Otherwise an
   * `x-idempotent` operation gets a fresh key on every request, so that each case reaches the handler instead of
   * replaying (or being refused as a different request under) the base request's key.
   */
  fixedHeaders?: boolean;
  /** What the contract says of this request: `refuse` (it breaks the contract), `accept`, or a status set. */
  expect: Expectation;
}

export type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; bytes: Uint8Array | string; contentType?: string; headers?: Record<string, string> }
  | { kind: 'multipart'; parts: Array<MultipartPart> };

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; file: { name: string; type: string; bytes: Uint8Array } };

export type Expectation =
  | { kind: 'refuse' }
  | { kind: 'accept' }
  | { kind: 'status'; statuses: number[]; why: string }
  | { kind: 'any' };

export interface Built {
  url: string;
  init: RequestInit;
  /** The request as a shell command, tokens as variables ($TOKEN_SELLER...). */
  curl: string;
}

const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** The path with its parameters encoded in (a missing one left as `{name}`, which no route matches). */
export function urlOf(attack: Attack): string {
  const path = attack.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = attack.path?.[name];
    // a lone surrogate (a naughty string) has no UTF-8 form: a URL carries U+FFFD in its place, as a browser sends
    return v === undefined ? `{${name}}` : encodeURIComponent(wellFormed(v));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(attack.query ?? {})) {
    for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
  }
  const qs = search.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const printable = (s: string) => /^[\x20-\x7e\n\t]*$/.test(s);

export function buildRequest(attack: Attack, tokenOf: (principal: string) => string): Built {
  const url = urlOf(attack);
  const headers: Record<string, string> = { ...(attack.headers ?? {}) };
  const curlHeaders: string[] = Object.entries(attack.headers ?? {}).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`);
  if (attack.principal) {
    headers.authorization = `Bearer ${tokenOf(attack.principal)}`;
    curlHeaders.push(`-H "authorization: Bearer $TOKEN_${attack.principal.toUpperCase()}"`);
  } else if (attack.authorization !== undefined) {
    headers.authorization = attack.authorization;
    curlHeaders.push(`-H ${shellQuote(`authorization: ${attack.authorization}`)}`);
  }
  let body: BodyInit | undefined;
  let curlBody = '';
  const b = attack.body;
  if (b?.kind === 'json') {
    const text = JSON.stringify(b.value);
    headers['content-type'] = 'application/json';
    body = text;
    curlHeaders.push(`-H 'content-type: application/json'`);
    curlBody =
      text.length > 2000
        ? `--data-binary @body.json  # ${text.length} bytes: ${text.slice(0, 200)}…`
        : `--data-binary ${shellQuote(text)}`;
  } else if (b?.kind === 'raw') {
    if (b.contentType !== undefined) {
      headers['content-type'] = b.contentType;
      curlHeaders.push(`-H ${shellQuote(`content-type: ${b.contentType}`)}`);
    }
    for (const [k, v] of Object.entries(b.headers ?? {})) {
      headers[k] = v;
      curlHeaders.push(`-H ${shellQuote(`${k}: ${v}`)}`);
    }
    body = typeof b.bytes === 'string' ? b.bytes : new Uint8Array(b.bytes);
    const asText = typeof b.bytes === 'string' ? b.bytes : null;
    if (asText !== null && asText.length <= 2000 && printable(asText)) curlBody = `--data-binary ${shellQuote(asText)}`;
    else {
      const bytes = typeof b.bytes === 'string' ? Buffer.from(b.bytes) : Buffer.from(b.bytes);
      curlBody =
        bytes.length > 2000
          ? `--data-binary @body.bin  # ${bytes.length} bytes, starting ${bytes.subarray(0, 60).toString('base64')}`
          : `--data-binary @<(printf %s ${bytes.toString('base64')} | base64 -d)`;
    }
  } else if (b?.kind === 'multipart') {
    const form = new FormData();
    const curlParts: string[] = [];
    for (const part of b.parts) {
      if ('file' in part) {
        form.append(part.name, new Blob([new Uint8Array(part.file.bytes)], { type: part.file.type }), part.file.name);
        curlParts.push(
          `-F ${shellQuote(`${part.name}=@${part.file.name};type=${part.file.type}`)}  # ${part.file.bytes.length} bytes starting ${Buffer.from(part.file.bytes.subarray(0, 8)).toString('hex')}`,
        );
      } else {
        form.append(part.name, part.value);
        curlParts.push(
          `-F ${shellQuote(`${part.name}=${part.value.length > 200 ? `${part.value.slice(0, 200)}…` : part.value}`)}`,
        );
      }
    }
    body = form;
    curlBody = curlParts.join(' ');
  }
  const curl = [
    `curl -sS -i -X ${attack.op.method.toUpperCase()}`,
    shellQuote(`http://localhost:8080${url}`),
    ...curlHeaders,
    curlBody,
  ]
    .filter(Boolean)
    .join(' ');
  return { url, init: { method: attack.op.method.toUpperCase(), headers, body }, curl };
}
