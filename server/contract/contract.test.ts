import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createApp } from '../app';
import { manualClock } from '../clock';
import { type Db, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { createLogger } from '../logger';
import { QUOTA_NAMES, QUOTAS, quotaStatus } from '../quotas/limits';
import { CONTRACT_FILE, type Contract, HTTP_METHODS, loadContract } from './contract';

interface RawOperation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name?: string; in?: string; $ref?: string }[];
  requestBody?: { content?: Record<string, unknown>; $ref?: string };
  responses?: Record<string, unknown>;
  'x-status'?: string;
  'x-permission'?: string;
  'x-role'?: string;
}
interface RawDoc {
  security?: unknown[];
  tags?: { name: string }[];
  components: { schemas: { PermissionName: { enum: string[] } } };
  paths: Record<string, Record<string, unknown>>;
}

const doc = parse(readFileSync(CONTRACT_FILE, 'utf8')) as RawDoc;
const raw: { method: string; path: string; op: RawOperation }[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  HTTP_METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as RawOperation })),
);
const label = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;
const pathNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

describe('the contract (openapi/portal.yaml)', () => {
  let contract: Contract;

  beforeAll(() => {
    contract = loadContract();
  });

  it('loads every operation of the file', () => {
    expect(raw.length).toBeGreaterThan(100);
    expect(contract.operations).toHaveLength(raw.length);
    for (const o of raw) expect(contract.find(o.method, o.path), label(o)).toBeDefined();
  });

  it('gives every operation a unique operationId and a declared tag', () => {
    const ids = raw.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const tags = new Set((doc.tags ?? []).map((t) => t.name));
    expect(raw.filter((o) => !o.op.tags?.length || o.op.tags.some((t) => !tags.has(t))).map(label)).toEqual([]);
  });

  it('declares 401 on every secured operation', () => {
    const secured = contract.operations.filter((op) => op.secured);
    expect(secured.length).toBeGreaterThan(100);
    expect(secured.filter((op) => !op.responses.has('401')).map(label)).toEqual([]);
    // login is the one door in
    expect(contract.find('post', '/auth/login')?.secured).toBe(false);
  });

  it('declares 400, 413, 415 and 422 on every operation with a JSON body (the router answers them)', () => {
    const withJson = contract.operations.filter((op) => op.bodyMediaType === 'application/json');
    expect(withJson.map((op) => op.operationId)).toContain('login');
    const missing = withJson.flatMap((op) =>
      ['400', '413', '415', '422'].filter((s) => !op.responses.has(s)).map((s) => `${label(op)} lacks ${s}`),
    );
    expect(missing).toEqual([]);
  });

  it('declares every {param} of a path as a path parameter, and no path parameter the path lacks', () => {
    const problems: string[] = [];
    for (const o of raw) {
      const names = pathNames(o.path);
      const declared = (o.op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      for (const n of names) if (!declared.includes(n)) problems.push(`${label(o)}: {${n}} not declared`);
      for (const n of declared) if (!names.includes(n as string)) problems.push(`${label(o)}: ${n} not in the path`);
      // the loader must see them too (it does not follow $ref in parameters)
      const op = contract.find(o.method, o.path);
      const seen = (op?.validatePath({}) ?? []).map((e) => e.path).sort();
      expect(seen, label(o)).toEqual(names.map((n) => `/path/${n}`).sort());
    }
    expect(problems).toEqual([]);
  });

  it('declares 422 on every implemented operation that takes parameters (the router validates them)', () => {
    const missing = raw
      .filter((o) => o.op['x-status'] !== 'planned' && (o.op.parameters ?? []).length > 0)
      .filter((o) => !o.op.responses?.['422'])
      .map(label);
    expect(missing).toEqual([]);
  });

  it('declares 501 on every planned operation, and only on those', () => {
    for (const op of contract.operations) expect(op.responses.has('501'), label(op)).toBe(op.planned);
    expect(contract.operations.filter((op) => !op.planned).map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['login', 'logout', 'getMyAccount', 'getRolesPermissions', 'getKycStatus']),
    );
  });

  it('declares 403 on every secured operation the KYC gate can refuse', () => {
    const problems = raw
      .filter((o) => {
        const op = contract.find(o.method, o.path);
        return op?.secured && (!op.kycExempt || op.permission !== null);
      })
      .filter((o) => !o.op.responses?.['403'])
      .map((o) => `${label(o)} lacks 403`);
    expect(problems).toEqual([]);
  });

  it('declares 403 on every operation with x-permission, which names a permission and needs a token', () => {
    const names = doc.components.schemas.PermissionName.enum;
    const guarded = raw.filter((o) => o.op['x-permission'] !== undefined && o.op['x-permission'] !== 'none');
    expect(guarded.length).toBeGreaterThanOrEqual(11);
    const problems = guarded.flatMap((o) => [
      ...(o.op.responses?.['403'] ? [] : [`${label(o)} lacks 403`]),
      ...(names.includes(o.op['x-permission'] ?? '')
        ? []
        : [`${label(o)}: '${o.op['x-permission']}' is no permission`]),
      ...(contract.find(o.method, o.path)?.secured ? [] : [`${label(o)} has no security`]),
    ]);
    expect(problems).toEqual([]);
    // the loader sees exactly these
    expect(contract.operations.filter((op) => op.permission !== null).map(label)).toEqual(guarded.map(label));
  });

  it('says who may call every secured operation: a permission, none (every user) or a role', () => {
    const silent = raw
      .filter((o) => contract.find(o.method, o.path)?.secured)
      .filter((o) => o.op['x-permission'] === undefined && o.op['x-role'] === undefined)
      .map(label);
    expect(silent).toEqual([]);
  });

  it('refuses to load a contract with a secured operation that does not say who may call it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-portal-contract-'));
    try {
      const file = join(dir, 'portal.yaml');
      writeFileSync(file, readFileSync(CONTRACT_FILE, 'utf8').replace('      x-permission: sales\n', ''));
      expect(() => loadContract(file)).toThrow(/getSalesCount: a secured call must declare x-permission/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to load a contract whose x-permission is not a permission name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-portal-contract-'));
    try {
      const file = join(dir, 'portal.yaml');
      writeFileSync(file, readFileSync(CONTRACT_FILE, 'utf8').replace('x-permission: sales', 'x-permission: sale'));
      expect(() => loadContract(file)).toThrow(/getSalesCount: x-permission 'sale'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to load a contract whose upload names no daily cap of bytes, or a cap that does not exist', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-portal-contract-'));
    try {
      const file = join(dir, 'portal.yaml');
      const text = readFileSync(CONTRACT_FILE, 'utf8');
      writeFileSync(file, text.replace('      x-quota: [upload-bytes, pending-deposits]\n', ''));
      expect(() => loadContract(file)).toThrow(/sendDepositRequest: an upload must name x-quota 'upload-bytes'/);
      writeFileSync(file, text.replace('x-quota: [addresses]', 'x-quota: [adresses]'));
      expect(() => loadContract(file)).toThrow(/addAddress: x-quota 'adresses' is not a cap/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('declares the answer of every cap an operation names (409 for a count, 429 for a window)', () => {
    for (const op of contract.operations) {
      for (const name of op.quotas) {
        expect(op.responses, `${op.operationId} ${name}`).toContain(String(quotaStatus(QUOTAS[name])));
      }
    }
    // every cap is spent by some operation
    const named = new Set(contract.operations.flatMap((op) => [...op.quotas]));
    expect([...named].sort()).toEqual([...QUOTA_NAMES].sort());
  });

  it('uses no $ref for request bodies or parameters (the loader reads them inline)', () => {
    const refs = raw.filter((o) => o.op.requestBody?.$ref || (o.op.parameters ?? []).some((p) => p.$ref)).map(label);
    expect(refs).toEqual([]);
  });
});

describe('the server serves the whole contract', () => {
  let dir: string;
  let db: Db;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-portal-contract-'));
    db = openDatabase(join(dir, 'portal.sqlite'));
    await migrateToLatest(db);
    app = createApp({ db, clock: manualClock(), log: createLogger('silent') });
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Open calls that need no input: health answers, the metrics ask for their own token. */
  const OPEN_WITHOUT_INPUT: Record<string, number> = { getLiveness: 200, getReadiness: 200, getMetrics: 401 };

  it('routes every operation: secured ones answer 401 without a token, open planned ones 501', async () => {
    const contract = loadContract();
    const wrong: string[] = [];
    for (const op of contract.operations) {
      const url = `/api${op.path.replace(/\{[^}]+\}/g, '1')}`;
      const res = await app.request(url, {
        method: op.method.toUpperCase(),
        ...(op.bodyMediaType === 'application/json'
          ? { headers: { 'content-type': 'application/json' }, body: '{}' }
          : {}),
      });
      const expected = op.secured ? 401 : op.planned ? 501 : (OPEN_WITHOUT_INPUT[op.operationId] ?? 422);
      if (res.status !== expected) wrong.push(`${label(op)} answered ${res.status}, expected ${expected}`);
      if (!op.responses.has(String(res.status))) wrong.push(`${label(op)} answered ${res.status}, not in the contract`);
    }
    expect(wrong).toEqual([]);
  });
});
