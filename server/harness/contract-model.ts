import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The harness's own reading of openapi/portal.yaml: every operation with its parameters, body and answers,
 * `$ref`s resolved. It does not use the server's contract loader, so that the harness is a second reading of
 * the same document rather than a copy of the code it attacks.
 */
export const PORTAL_YAML = fileURLToPath(new URL('../../openapi/portal.yaml', import.meta.url));

export type Schema = boolean | { [key: string]: unknown };
export type Doc = {
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** Resolved: no `$ref` left (a cycle becomes `{ 'x-cycle': ref }`). */
  schema: Schema;
}

export interface Answer {
  status: string;
  /** The JSON pointer of the answer's schema in the document, for the validator; null when none is declared. */
  pointer: string | null;
  /** The contract declares a text answer (`text/plain`: the metrics), not the JSON envelope. */
  text?: boolean;
  /** The media type when the answer is a file rather than the JSON envelope (`application/zip`). */
  file?: string | null;
}

export interface Op {
  operationId: string;
  method: Method;
  /** As the contract writes it: `/admin/kyc/{id}/approve`. */
  path: string;
  tags: string[];
  planned: boolean;
  secured: boolean;
  /** `x-permission` (a permission name), null for none or `none`. */
  permission: string | null;
  /** `x-role` (admin, seller), null for any. */
  role: string | null;
  kycExempt: boolean;
  idempotent: boolean;
  /** `x-quota`: the caps (server/quotas/limits.ts) the operation enforces. */
  quotas: string[];
  params: Param[];
  body: null | {
    media: string;
    required: boolean;
    /** Resolved schema. */
    schema: Schema;
    /** Pointer of the (unresolved) schema, for the validator. */
    pointer: string;
    /** `encoding` of a multipart body (per field content types). */
    encoding: Record<string, { contentType?: string }>;
  };
  answers: Map<string, Answer>;
}

export interface ContractModel {
  doc: Doc;
  operations: Op[];
  /** The operations the server has built (no `x-status: planned`): what the harness attacks. */
  built: Op[];
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function at(doc: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#/')) throw new Error(`only local $refs are supported: ${pointer}`);
  let node: unknown = doc;
  for (const raw of pointer.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`unresolvable $ref ${pointer}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The node with every local `$ref` replaced by its target (siblings of a `$ref` kept, as OpenAPI 3.1 allows). */
export function resolveRefs<T>(node: T, doc: unknown, seen: ReadonlySet<string> = new Set()): T {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, doc, seen)) as T;
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (typeof record.$ref === 'string') {
    const ref = record.$ref;
    if (seen.has(ref)) return { 'x-cycle': ref } as T;
    const { $ref: _ref, ...siblings } = record;
    const target = at(doc, ref) as Record<string, unknown>;
    return resolveRefs({ ...target, ...siblings } as T, doc, new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, resolveRefs(v, doc, seen)])) as T;
}

/** The media type of an answer that is a file (`application/zip`), null for a JSON answer. */
function fileMedia(response: unknown): string | null {
  const media = Object.keys((response as { content?: Record<string, unknown> }).content ?? {});
  return media.length > 0 && !media.includes('application/json') && !media.includes('text/plain')
    ? (media[0] ?? null)
    : null;
}

/** Where the JSON schema of an answer lives (following a `$ref` to components/responses). */
function answerPointer(doc: Doc, path: string, method: string, status: string, response: unknown): string | null {
  const r = response as { $ref?: string; content?: Record<string, { schema?: unknown }> };
  if (r.$ref) {
    const target = at(doc, r.$ref) as { content?: Record<string, { schema?: unknown }> };
    return target.content?.['application/json']?.schema ? `${r.$ref}/content/application~1json/schema` : null;
  }
  return r.content?.['application/json']?.schema
    ? `#/paths/${escapePointer(path)}/${method}/responses/${status}/content/application~1json/schema`
    : null;
}

export function readContract(file = PORTAL_YAML): ContractModel {
  return modelOf(parse(readFileSync(file, 'utf8')) as Doc);
}

export function modelOf(doc: Doc): ContractModel {
  const operations: Op[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const item = rawItem as Record<string, unknown>;
    const shared = resolveRefs((item.parameters as unknown[] | undefined) ?? [], doc) as Array<Record<string, unknown>>;
    for (const method of METHODS) {
      const raw = item[method] as Record<string, unknown> | undefined;
      if (!raw) continue;
      const own = resolveRefs((raw.parameters as unknown[] | undefined) ?? [], doc) as Array<Record<string, unknown>>;
      const byKey = new Map<string, Record<string, unknown>>();
      for (const p of [...shared, ...own]) byKey.set(`${p.in}:${p.name}`, p);
      const params: Param[] = [...byKey.values()].map((p) => ({
        name: String(p.name),
        in: p.in as Param['in'],
        required: p.in === 'path' || p.required === true,
        schema: (p.schema as Schema | undefined) ?? {},
      }));
      const requestBody = raw.requestBody
        ? (resolveRefs(raw.requestBody, doc) as {
            required?: boolean;
            content: Record<string, { schema?: Schema; encoding?: Record<string, { contentType?: string }> }>;
          })
        : null;
      const media = requestBody ? Object.keys(requestBody.content)[0] : undefined;
      const security = (raw.security as unknown[] | undefined) ?? doc.security ?? [];
      const permission = typeof raw['x-permission'] === 'string' ? raw['x-permission'] : null;
      const responses = (raw.responses as Record<string, unknown>) ?? {};
      operations.push({
        operationId: String(raw.operationId),
        method,
        path,
        tags: (raw.tags as string[] | undefined) ?? [],
        planned: raw['x-status'] === 'planned',
        secured: security.length > 0,
        permission: permission === 'none' ? null : permission,
        role: typeof raw['x-role'] === 'string' ? raw['x-role'] : null,
        kycExempt: raw['x-kyc-exempt'] === true,
        idempotent: raw['x-idempotent'] === true,
        quotas: Array.isArray(raw['x-quota']) ? (raw['x-quota'] as unknown[]).map(String) : [],
        params,
        body:
          requestBody && media
            ? {
                media,
                required: requestBody.required === true,
                schema: requestBody.content[media]?.schema ?? {},
                pointer: `#/paths/${escapePointer(path)}/${method}/requestBody/content/${escapePointer(media)}/schema`,
                encoding: requestBody.content[media]?.encoding ?? {},
              }
            : null,
        answers: new Map(
          Object.entries(responses).map(([status, response]) => [
            status,
            {
              status,
              pointer: answerPointer(doc, path, method, status, response),
              text: !!(response as { content?: Record<string, unknown> }).content?.['text/plain'],
              file: fileMedia(response),
            },
          ]),
        ),
      });
    }
  }
  return { doc, operations, built: operations.filter((o) => !o.planned) };
}

/** Whether the operation declares this status (exactly, or by its class as `4XX`). */
export function declares(op: Op, status: number): boolean {
  return op.answers.has(String(status)) || op.answers.has(`${String(status)[0]}XX`) || op.answers.has('default');
}
