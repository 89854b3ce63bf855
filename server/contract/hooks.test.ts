import { describe, expect, it } from 'vitest';
import {
  call,
  clock,
  logInAll,
  looseApp,
  newKey,
  noted,
  openHooksApp,
  PNG,
  proofForm,
  rowsNamed,
  strictApp,
  tokens,
} from './hooks-testing';

/**
 * The router's hooks x-transaction, x-idempotent, x-role, the NUL character, array queries and response checking,
 * through the hooks' own contract (hooks-testing.ts) and real handlers on a real database.
 */
openHooksApp();

describe('x-transaction', () => {
  it('commits every write of a handler that succeeds', async () => {
    const res = await call('POST', '/t/transfer', { json: { note: 'commit' }, key: newKey() });
    expect(res.status).toBe(200);
    expect(await noted('commit')).toBe(2);
  });

  it('rolls back what the handler wrote when it throws, and answers the generic 500', async () => {
    const res = await call('POST', '/t/transfer', { json: { note: 'thrown', fail: 'throw' }, key: newKey() });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      success: false,
      message: 'An unexpected error occurred. Please try again later.',
    });
    expect(await noted('thrown')).toBe(0);
  });

  it('rolls back what the handler wrote when it answers an error', async () => {
    const res = await call('POST', '/t/transfer', { json: { note: 'refused', fail: 'reply' }, key: newKey() });
    expect(res.status).toBe(409);
    expect(await noted('refused')).toBe(0);
  });

  it('(the control) keeps a write made without x-transaction, though the handler failed after it', async () => {
    const before = await rowsNamed('plain');
    expect((await call('POST', '/t/plain-write')).status).toBe(500);
    expect(await rowsNamed('plain')).toBe(before + 1);
  });
});

describe('x-idempotent', () => {
  it('refuses a call without an Idempotency-Key, or with a malformed one', async () => {
    for (const key of [undefined, 'short', 'with space inside']) {
      const res = await call('POST', '/t/transfer', { json: { note: 'nokey' }, ...(key ? { key } : {}) });
      expect(res.status, String(key)).toBe(422);
      const body = (await res.json()) as { errors: { path: string }[] };
      expect(body.errors.map((e) => e.path)).toContain('/header/idempotency-key');
    }
    expect(await noted('nokey')).toBe(0);
  });

  it('has one effect for 10 sequential replays, each answering the first reply', async () => {
    const key = newKey();
    const answers = [];
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/t/transfer', { json: { note: 'sequential' }, key });
      answers.push({ status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() });
    }
    expect(await noted('sequential')).toBe(2);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers[0]?.replayed).toBeNull();
    expect(answers.slice(1).every((a) => a.replayed === 'true')).toBe(true);
  });

  it('has one effect for 10 concurrent calls with the same key', async () => {
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        Promise.resolve(call('POST', '/t/transfer', { json: { note: 'concurrent' }, key })).then(async (r) => ({
          status: r.status,
          body: await r.json(),
        })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await noted('concurrent')).toBe(2);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'first-body' }, key })).status).toBe(200);
    const other = await call('POST', '/t/transfer', { json: { note: 'second-body' }, key });
    expect(other.status).toBe(422);
    expect(((await other.json()) as { message: string }).message).toMatch(/already used with a different request/);
    expect(await noted('first-body')).toBe(2);
    expect(await noted('second-body')).toBe(0);
  });

  it('treats the same JSON with its keys in another order as the same request', async () => {
    const key = newKey();
    const raw = (body: string) =>
      strictApp.request('/api/t/transfer', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.seller}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body,
      });
    expect((await raw('{"note":"reordered","fail":"throw"}')).status).toBe(500);
    expect((await raw('{"note":"reordered"}')).status).toBe(200);
    expect((await raw('{ "note" : "reordered" }')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per user: another seller with the same key gets its own effect', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'per-user' }, key })).status).toBe(200);
    const rival = await call('POST', '/t/transfer', { json: { note: 'per-user' }, key, token: tokens.rival });
    expect(rival.status).toBe(200);
    expect(rival.headers.get('idempotent-replayed')).toBeNull();
    expect(await noted('per-user')).toBe(4);
  });

  it('does not use up a key on a refused call: the corrected retry with the same key runs', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'retry', fail: 'reply' }, key })).status).toBe(409);
    // a different body under the same key is allowed here: the refused call was never kept
    const retried = await call('POST', '/t/transfer', { json: { note: 'retry' }, key });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await noted('retry')).toBe(2);
  });

  it('forgets a key after 24 hours', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'expiry' }, key })).status).toBe(200);
    clock.advance(24 * 60 * 60 * 1000 - 1000);
    expect(
      (await call('POST', '/t/transfer', { json: { note: 'expiry' }, key })).headers.get('idempotent-replayed'),
    ).toBe('true');
    clock.advance(2000);
    // the tokens lived 24 hours too
    await logInAll();
    const later = await call('POST', '/t/transfer', { json: { note: 'expiry' }, key });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await noted('expiry')).toBe(4);
  });
});

describe('the NUL character', () => {
  it('is refused (422) wherever it comes, before a handler or the database sees it', async () => {
    const before = await noted('nul');
    const cases: [string, Promise<Response> | Response][] = [
      ['body', call('POST', '/t/transfer', { json: { note: 'nul\u0000' }, key: newKey() })],
      ['body key', call('POST', '/t/transfer', { json: { note: 'nul', 'x\u0000': 1 }, key: newKey() })],
      ['query', call('GET', '/t/filter?status=pending%00')],
      [
        'multipart field',
        call('POST', '/t/upload', { form: proofForm(PNG, 'p.png', { amount: '1', notes: 'a\u0000b' }), key: newKey() }),
      ],
    ];
    for (const [where, pending] of cases) {
      const res = await pending;
      expect(res.status, where).toBe(422);
      const body = (await res.json()) as { errors: { message: string }[] };
      expect(
        body.errors.map((e) => e.message),
        where,
      ).toContain('must not contain the character U+0000');
    }
    expect(await noted('nul')).toBe(before);
  });
});

describe('array query parameters', () => {
  it('arrive as arrays when the contract says so, and a repeated scalar is refused', async () => {
    const data = async (res: Response) => ((await res.json()) as { data: unknown }).data;
    expect(await data(await call('GET', '/t/filter?status=pending&status=confirmed&page=2'))).toEqual({
      status: ['pending', 'confirmed'],
      page: 2,
    });
    expect(await data(await call('GET', '/t/filter?status=delivered'))).toEqual({ status: ['delivered'] });
    expect((await call('GET', '/t/filter?page=1&page=2')).status).toBe(422);
    expect((await call('GET', '/t/filter?status=pending&status=shipped')).status).toBe(422);
  });
});

describe('answers checked against the contract (tests and development)', () => {
  it('turns a body off its schema, an undeclared status or an undeclared thrown status into a 500', async () => {
    for (const how of ['body', 'status', 'thrown']) {
      const res = await call('GET', `/t/off-contract?how=${how}`);
      expect(res.status, how).toBe(500);
    }
  });

  it('lets them through when the check is off (production), so that a user is not failed by the check', async () => {
    expect((await call('GET', '/t/off-contract?how=body', {}, looseApp)).status).toBe(200);
  });
});

describe('x-role', () => {
  it('opens the back office to admins only', async () => {
    expect((await call('GET', '/t/admin-only')).status).toBe(403);
    expect((await call('GET', '/t/admin-only', { token: tokens.admin })).status).toBe(200);
  });

  it('matches the bearer scheme case-insensitively (RFC 9110)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await strictApp.request('/api/t/admin-only', {
        headers: { authorization: `${scheme} ${tokens.admin}` },
      });
      expect(res.status, scheme).toBe(200);
    }
  });
});
