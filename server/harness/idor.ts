import fc from 'fast-check';
import { asParam, baseOf, bodyOf, type Parts } from './cases';
import type { Op, Schema } from './contract-model';
import type { Harness } from './harness';
import { type Principal, refusalFor } from './principals';
import type { Attack, Expectation } from './requests';
import { setIn, typesOf, validArbitrary } from './schema-arbitrary';
import type { Validators } from './validators';

/**
 * The IDOR matrix. Which ids belong to whom is read from the listing calls, as a user would find them: every
 * built GET operation without path parameters is called by each principal (every page of it, at its largest
 * page size), and every `id` and `*_id` value in the answers is noted with the key it came under and the tags
 * of the operation. An operation that takes an id (a path parameter, or a top-level body or query field named
 * `id`, `*_id`, `ids` or `*_ids`) is then called by each principal with the ids that another principal's
 * listings show and its own do not: the answer must be 404 (403 when the contract refuses the caller the
 * operation altogether), and nothing may change. Ids both can see (public things: events, countries) are
 * nobody's secret and are not used. Each principal must also reach at least one id of its own (not 404), so
 * that a server answering 404 to everything cannot pass.
 */

export const IDOR_PRINCIPALS = ['seller', 'rival', 'member'] as const;

export interface IdField {
  where: 'path' | 'query' | 'body';
  name: string;
  /** The key whose values are its ids in the listings: `id` for `id`/`ids`, `order_id` for `order_id(s)`. */
  key: string;
  many: boolean;
  schema: Schema;
}

export const isIdName = (name: string) => /^(?:id|ids|.+_ids?)$/.test(name);
const keyOf = (name: string) => (name === 'ids' ? 'id' : name.replace(/_ids$/, '_id'));

const marked = (schema: Schema, key: string) =>
  typeof schema === 'object' && schema !== null && (schema as Record<string, unknown>)[key] === true;

/**
 * `x-public-id: true` in the contract: the id names a public thing (an event, a listing on sale), not a secret.
 * `x-unlisted-id: true`: no listing shows the id (a card verification, made by a call's first step and used at
 * once), so the matrix cannot learn whose it is; the operation's own test checks another owner's answers 404.
 */
const outsideTheMatrix = (schema: Schema) => marked(schema, 'x-public-id') || marked(schema, 'x-unlisted-id');

export function idFields(op: Op): IdField[] {
  const out: IdField[] = [];
  for (const p of op.params) {
    if (outsideTheMatrix(p.schema)) continue;
    if (p.in === 'path' || (p.in === 'query' && isIdName(p.name))) {
      if (p.in === 'path' && !isIdName(p.name)) continue;
      out.push({ where: p.in, name: p.name, key: keyOf(p.name), many: p.name.endsWith('ids'), schema: p.schema });
    }
  }
  if (op.body && op.body.media !== 'multipart/form-data') {
    const props =
      (typeof op.body.schema === 'object'
        ? (op.body.schema.properties as Record<string, Schema> | undefined)
        : undefined) ?? {};
    for (const [name, schema] of Object.entries(props)) {
      if (isIdName(name) && !outsideTheMatrix(schema))
        out.push({ where: 'body', name, key: keyOf(name), many: typesOf(schema).includes('array'), schema });
    }
  }
  return out;
}

/**
 * The base request without its optional public ids (x-public-id, outside the matrix): a match id drawn at random
 * names no match, so every caller, own ids or not, got 404 and the field under test looked unreachable (a fuzz
 * seed found it on addTradeTracking's booking_id). A required one stays: the operation needs it.
 */
export function withoutOptionalPublicIds(op: Op, parts: Parts): Parts {
  const query = { ...parts.query };
  // an optional query parameter other than an id is a filter: it narrows nothing the matrix needs, and two of
  // them may be valid alone and refused together (date_from after date_to, a period over three years)
  for (const p of op.params)
    if (p.in === 'query' && !p.required && (marked(p.schema, 'x-public-id') || !isIdName(p.name))) delete query[p.name];
  const schema = op.body && typeof op.body.schema === 'object' ? op.body.schema : undefined;
  const props = (schema?.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  let json = parts.json;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const copy = { ...(json as Record<string, unknown>) };
    for (const [name, field] of Object.entries(props))
      if (!required.has(name) && marked(field, 'x-public-id')) delete copy[name];
    json = copy;
  }
  return { ...parts, query, json };
}

/** The matrix's base request for `op` at `seed`: from the schemas, without its filters and optional public ids. */
export const idorBase = (op: Op, v: Validators, seed: number) => withoutOptionalPublicIds(op, baseOf(op, v, seed));

/** The ids each principal's listings show: `${tag}|${key}` and `*|${key}` -> values. */
export type Reach = Map<string, Set<string | number>>;

export function collectIds(value: unknown, tags: readonly string[], into: Reach) {
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'id' || k.endsWith('_id')) && (typeof x === 'number' || typeof x === 'string')) {
          for (const scope of [...tags, '*']) {
            const key = `${scope}|${k}`;
            const set = into.get(key) ?? new Set();
            set.add(x);
            into.set(key, set);
          }
        } else walk(x);
      }
    }
  };
  walk(value);
}

/**
 * The listing calls: built GETs answering JSON with no path parameter and no required query parameter (a read that requires one,
 * such as a listing's history by its ticket_id or a match's seating plan by its match_id, reads the one thing
 * that parameter names, like a path parameter, and answers 404 for a made-up one).
 */
export const listingOps = (ops: readonly Op[]) =>
  ops.filter(
    (o) =>
      o.method === 'get' &&
      !o.planned &&
      // a text answer (the metrics) lists no ids
      !o.answers.get('200')?.text &&
      !o.params.some((p) => p.in === 'path' || (p.in === 'query' && p.required)),
  );

const largest = (s: Schema, fallback: number) =>
  typeof s === 'object' && typeof s.maximum === 'number' ? Math.min(s.maximum, 100) : fallback;

/** Reads every page of every listing as `p`. */
export async function reachOf(h: Harness, p: Principal, seed: number): Promise<Reach> {
  const reach: Reach = new Map();
  for (const op of listingOps(h.model.built)) {
    if (op.secured && refusalFor(p, op)) continue;
    const base = baseOf(op, h.validators, seed);
    const pageParam = op.params.find((x) => x.in === 'query' && x.name === 'page');
    const sizeParam = op.params.find((x) => x.in === 'query' && x.name === 'per_page');
    const query: Record<string, string | string[]> = { ...base.query };
    // the listing shows everything it can: no optional filter narrows it
    for (const q of op.params) if (q.in === 'query' && !q.required) delete query[q.name];
    if (sizeParam) query.per_page = String(largest(sizeParam.schema, 50));
    for (let page = 1; page <= 200; page++) {
      if (pageParam) query.page = String(page);
      const { status, body } = await h.send(listing(op, p, { ...base, query: { ...query } }));
      if (status !== 200) break;
      collectIds((body as { data?: unknown })?.data, op.tags, reach);
      const meta = findMeta(body);
      if (!pageParam || !meta || page >= meta.last_page) break;
    }
  }
  return reach;
}

function findMeta(v: unknown): { last_page: number } | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.last_page === 'number') return { last_page: o.last_page };
  for (const x of Object.values(o)) {
    const m = findMeta(x);
    if (m) return m;
  }
  return null;
}

const listing = (op: Op, p: Principal, parts: Parts): Attack => ({
  op,
  category: 'idor',
  label: `listing as ${p.name}`,
  principal: p.name,
  path: parts.path,
  query: parts.query,
  headers: parts.headers,
  expect: { kind: 'status', statuses: [200], why: 'a listing the caller may read' },
});

/** The ids of `field` that principal can list for operation `op` (same tag, or the `*_id` key anywhere). */
export function idsFor(reach: Reach, op: Op, field: IdField): Set<string | number> {
  const out = new Set<string | number>();
  for (const tag of op.tags) for (const v of reach.get(`${tag}|${field.key}`) ?? []) out.add(v);
  if (field.key !== 'id') for (const v of reach.get(`*|${field.key}`) ?? []) out.add(v);
  return out;
}

function withId(parts: Parts, field: IdField, id: string | number): Parts {
  const value = field.many ? [id] : id;
  if (field.where === 'path') return { ...parts, path: { ...parts.path, [field.name]: String(id) } };
  if (field.where === 'query') return { ...parts, query: { ...parts.query, [field.name]: asParam(value) } };
  const typed = typesOf(field.schema).includes('string') && !field.many ? String(id) : value;
  return { ...parts, json: setIn(parts.json ?? {}, [field.name], typed) };
}

/** An id of `field`'s type that nobody has: the largest an `Id` may be, or a string no listing shows. */
const NOBODYS_ID = 2_147_483_647;
function nobodysId(field: IdField, seed: number): string | number {
  const one = field.many ? ((field.schema as Record<string, unknown>).items as Schema) : field.schema;
  const types = typesOf(one ?? {});
  if (types.includes('integer') || types.includes('number')) return NOBODYS_ID;
  // a string id of its schema's form (a session's 32 hex digits): drawn, so nobody has it
  return String(fc.sample(validArbitrary(one ?? {}), { seed, numRuns: 1 })[0]);
}

/**
 * The IDOR matrix's body for `op` with an id nobody owns in `field`, as `p` sends it: the answer must be 404 (the
 * thing is not found), never a 422 of the rest of the body. A 422 there means the matrix's body is one the
 * handler refuses before it looks the id up, so every foreign id would get 422 too and prove nothing (a fuzz
 * seed went red so on a price change that sent both `price` and `change_percent`).
 */
export function unknownIdCase(op: Op, field: IdField, p: Principal, seed: number, h: Pick<Harness, 'validators'>) {
  const id = nobodysId(field, seed);
  // any answer but a refusal of the request's form: 404 for a thing looked up, 200 for a filter that finds nothing
  const statuses = [...op.answers.keys()].map(Number).filter((n) => n < 500 && ![400, 413, 415, 422].includes(n));
  return call(op, p, withId(idorBase(op, h.validators, seed), field, id), {
    kind: 'status',
    statuses,
    why: `${field.name} ${id} is nobody's, and the rest of the request is valid`,
  });
}

export interface IdorResult {
  /** Operations that take an id, and whether the matrix had ids to try on them. */
  operations: Array<{ operationId: string; field: string; foreignTried: number; ownTried: number; ownReached: number }>;
  /** Operations it could not test: no principal's listing showed an id for them. */
  gaps: string[];
}

/**
 * Runs the matrix. `perPair` bounds how many foreign ids each caller tries per operation and field (spread
 * over the list, deterministic); own ids are tried last, since reaching one may change it (mark it read,
 * delete it).
 */
export async function idorMatrix(h: Harness, options: { perPair: number; seed: number }): Promise<IdorResult> {
  const names = IDOR_PRINCIPALS.filter((n) => h.principals[n]);
  const reach = new Map<string, Reach>();
  for (const n of names) reach.set(n, await reachOf(h, h.principals[n] as Principal, options.seed));
  const result: IdorResult = { operations: [], gaps: [] };
  const spread = <T>(list: T[], n: number) =>
    list.length <= n ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)] as T);
  // operations that delete go last: reaching their own ids removes what the other operations' own ids need
  // (a deleted billing address would make createBooking's own address_id and cart_id unreachable)
  const deletes = (op: Op) => /^(delete|remove)/i.test(op.operationId) || /\/(delete|remove)(\/|$)/.test(op.path);
  const targets = h.model.built
    .filter((op) => op.secured && idFields(op).length > 0)
    .sort((x, y) => Number(deletes(x)) - Number(deletes(y)));

  for (const op of targets) {
    const base = idorBase(op, h.validators, options.seed);
    for (const field of idFields(op)) {
      const row = {
        operationId: op.operationId,
        field: `${field.where}.${field.name}`,
        foreignTried: 0,
        ownTried: 0,
        ownReached: 0,
      };
      const callers = names.map((n) => h.principals[n] as Principal);
      // an operation none of them may call at all is the policy checks' business (403 for each), not IDOR's
      if (callers.every((a) => refusalFor(a, op))) continue;
      // the operation's other ids are the caller's own (when it has some), so that only `field` is foreign
      const ownBase = (a: Principal) =>
        idFields(op)
          .filter((other) => other.name !== field.name || other.where !== field.where)
          .reduce((parts, other) => {
            const own = [...idsFor(reach.get(a.name) as Reach, op, other)].sort()[0];
            return own === undefined ? parts : withId(parts, other, own);
          }, base);
      for (const a of callers) {
        const mine = idsFor(reach.get(a.name) as Reach, op, field);
        const refused = refusalFor(a, op);
        for (const b of callers) {
          if (b === a) continue;
          const theirs = [...idsFor(reach.get(b.name) as Reach, op, field)].filter((id) => !mine.has(id)).sort();
          for (const id of spread(theirs, options.perPair)) {
            const expect: Expectation = refused
              ? { kind: 'status', statuses: [403], why: refused }
              : { kind: 'status', statuses: [404], why: `${field.name} ${id} is ${b.name}'s, not ${a.name}'s` };
            row.foreignTried += 1;
            await h.send({
              ...call(op, a, withId(ownBase(a), field, id), expect),
              label: `${a.name} on ${b.name}'s ${field.name} ${id}`,
            });
          }
        }
      }
      // a team member that is itself a caller (member@demo.test in the seller's team) is never its own seller's
      // target: an update or removal of it would change or end a caller the rest of the matrix relies on
      const callerIds = new Set<string | number>(callers.map((c) => c.userId));
      for (const a of callers) {
        if (refusalFor(a, op)) continue;
        const mine = [...idsFor(reach.get(a.name) as Reach, op, field)]
          .filter((id) => field.key !== 'member_id' || !callerIds.has(id))
          .sort();
        for (const id of spread(mine, Math.min(3, options.perPair))) {
          row.ownTried += 1;
          const { status } = await h.send({
            ...call(op, a, withId(ownBase(a), field, id), { kind: 'any' }),
            label: `${a.name} on its own ${field.name} ${id}`,
          });
          if (status !== 404 && status !== 401 && status !== 403) row.ownReached += 1;
        }
      }
      if (row.foreignTried === 0 || row.ownReached === 0) result.gaps.push(`${op.operationId} ${row.field}`);
      result.operations.push(row);
    }
  }
  return result;
}

const call = (op: Op, p: Principal, parts: Parts, expect: Expectation): Attack => ({
  op,
  category: 'idor',
  label: '',
  principal: p.name,
  path: parts.path,
  query: parts.query,
  headers: parts.headers,
  // a JSON body, or the multipart body of an upload whose id is a query parameter (sales uploads' booking_id)
  ...(bodyOf(parts) === undefined ? {} : { body: bodyOf(parts) }),
  expect,
});
