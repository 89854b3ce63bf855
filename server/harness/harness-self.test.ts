import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../auth/session';
import { freshServer } from '../test-support';
import { type Doc, modelOf } from './contract-model';
import { createHarness, type Harness, type Sizes } from './harness';
import { idorMatrix } from './idor';

/**
 * The harness must catch what it claims to catch. A small contract of deliberately broken operations, served
 * beside the real app (which still answers login and logout, on a real database), is attacked; each defect must
 * show up as a violation, and a correct operation must show none.
 */
const error = { $ref: '#/components/responses/Error' };
const errors = { '400': error, '401': error, '403': error, '404': error, '413': error, '415': error, '422': error };
const ok = (data: object = {}) => ({
  description: 'ok',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success'],
        properties: { success: { const: true }, message: { type: 'string' }, ...data },
      },
    },
  },
});
const idBody = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
      },
    },
  },
};
const op = (operationId: string, rest: object) => ({
  operationId,
  tags: ['things'],
  'x-permission': 'none',
  'x-kyc-exempt': true,
  ...rest,
});

const doc: Doc = {
  security: [{ bearer: [] }],
  paths: {
    '/defect/crash': {
      get: op('crash', {
        parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
        responses: { '200': ok(), ...errors },
      }),
    },
    '/defect/leak': {
      post: op('leak', {
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } },
          },
        },
        responses: { '200': ok(), ...errors },
      }),
    },
    '/defect/bare': { get: op('bare', { responses: { '200': { description: 'ok' }, ...errors } }) },
    '/defect/teapot': { get: op('teapot', { responses: { '200': ok(), ...errors } }) },
    '/defect/off-schema': {
      get: op('offSchema', {
        responses: {
          '200': ok({ data: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } }),
          ...errors,
        },
      }),
    },
    '/defect/writes': { post: op('writes', { requestBody: idBody, responses: { '200': ok(), ...errors } }) },
    '/defect/lenient': { post: op('lenient', { requestBody: idBody, responses: { '200': ok(), ...errors } }) },
    '/things/list': {
      get: op('listThings', {
        responses: {
          '200': ok({ data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } }),
          ...errors,
        },
      }),
    },
    '/things/leaky-details': {
      post: op('leakyDetails', { requestBody: idBody, responses: { '200': ok({ data: {} }), ...errors } }),
    },
    '/things/details': {
      post: op('details', { requestBody: idBody, responses: { '200': ok({ data: {} }), ...errors } }),
    },
  },
  components: {
    responses: {
      Error: {
        description: 'an error',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['success', 'message'],
              properties: { success: { const: false }, message: { type: 'string' }, errors: { type: 'array' } },
            },
          },
        },
      },
    },
  },
};

describe('the harness against deliberately broken operations', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let h: Harness;
  const model = modelOf(doc);
  const sizes: Sizes = { valid: 2, randomInvalid: 4, blnsSlots: 1 };

  beforeAll(async () => {
    s = await freshServer();
    const real = s.app;
    const broken = new Hono();
    const refuse = (status: 400 | 401 | 404 | 415 | 422, message: string) =>
      Response.json({ success: false, message }, { status });
    let userId = 0;
    const auth: import('hono').MiddlewareHandler = async (c, next) => {
      const user = await authenticate(s.db, s.clock, c.req.header('authorization'));
      if (!user) return refuse(401, 'Please log in.');
      userId = user.id;
      return next();
    };
    broken.use('/api/defect/*', auth);
    broken.use('/api/things/*', auth);
    const idOf = async (req: Request): Promise<number | null> => {
      if (!(req.headers.get('content-type') ?? '').startsWith('application/json')) return null;
      try {
        const body = (await req.json()) as { id?: unknown };
        return Number.isInteger(body?.id) &&
          (body.id as number) > 0 &&
          (body.id as number) <= 2147483647 &&
          Object.keys(body).length === 1
          ? (body.id as number)
          : null;
      } catch {
        return null;
      }
    };
    broken.get('/api/defect/crash', () => {
      throw new Error('boom');
    });
    broken.post('/api/defect/leak', () =>
      refuse(400, 'SQLITE_ERROR: near "FROM": syntax error in SELECT * FROM users'),
    );
    broken.get('/api/defect/bare', (c) => c.json([1, 2, 3]));
    broken.get('/api/defect/teapot', (c) => c.json({ success: false, message: 'I am a teapot.' }, 418));
    broken.get('/api/defect/off-schema', (c) => c.json({ success: true, data: { id: 'one' } }));
    broken.post('/api/defect/writes', async (c) => {
      await s.db
        .insertInto('activity_log')
        .values({
          user_id: userId,
          type: 'probe',
          description: 'written before checking',
          created_at: s.clock.now().toISOString(),
        })
        .execute();
      return (await idOf(c.req.raw)) === null ? refuse(422, 'Invalid.') : c.json({ success: true });
    });
    broken.post('/api/defect/lenient', (c) => c.json({ success: true }));
    broken.get('/api/things/list', async (c) => {
      const rows = await s.db.selectFrom('notifications').select('id').where('user_id', '=', userId).execute();
      return c.json({ success: true, data: rows });
    });
    const details = (owned: boolean) => async (c: import('hono').Context) => {
      const id = await idOf(c.req.raw);
      if (id === null) return refuse(422, 'Invalid.');
      let q = s.db.selectFrom('notifications').selectAll().where('id', '=', id);
      if (owned) q = q.where('user_id', '=', userId);
      const row = await q.executeTakeFirst();
      return row ? c.json({ success: true, data: row }) : refuse(404, 'Not found.');
    };
    broken.post('/api/things/leaky-details', details(false));
    broken.post('/api/things/details', details(true));
    broken.all('*', (c) => real.request(c.req.raw));
    // Hono's own fallback, without its console noise: a plain-text 500
    broken.onError((_e, c) => c.text('Internal Server Error', 500));
    h = await createHarness({ request: (url, init) => broken.request(url, init), db: s.db, clock: s.clock }, { model });
  });
  afterAll(async () => {
    h?.dispose();
    await s?.close();
  });

  const problemsOf = async (operationId: string) => {
    const target = model.built.find((o) => o.operationId === operationId);
    if (!target) throw new Error(operationId);
    await h.attackOperation(target, sizes, 1);
    return h.violations.filter((v) => v.operationId === operationId).flatMap((v) => v.problems);
  };

  it.each([
    ['crash', /answered 500 \(a server error\)/],
    ['crash', /not JSON/],
    ['leak', /leaks SQL text/],
    ['leak', /leaks a database error/],
    ['bare', /not the envelope/],
    ['teapot', /status 418 is not declared/],
    ['offSchema', /off its schema: \/data\/id must be integer/],
    ['writes', /a refused request \(4\d\d\) wrote to activity_log/],
    ['lenient', /accepted \(200\) a request the contract refuses/],
  ])(
    '%s: finds %s',
    async (operationId, problem) => {
      const problems = h.violations.some((v) => v.operationId === operationId)
        ? h.violations.filter((v) => v.operationId === operationId).flatMap((v) => v.problems)
        : await problemsOf(operationId);
      expect(problems.join('\n')).toMatch(problem);
    },
    60_000,
  );

  it("finds another owner's id answered, and no fault with the operation that checks the owner", async () => {
    const result = await idorMatrix(h, { perPair: 3, seed: 1 });
    const leaky = h.violations.filter((v) => v.operationId === 'leakyDetails' && v.category === 'idor');
    expect(leaky.map((v) => v.problems.join(' ')).join('\n')).toMatch(/answered 200, expected 404/);
    expect(h.violations.filter((v) => v.operationId === 'details')).toEqual([]);
    expect(result.operations.find((r) => r.operationId === 'details')?.ownReached).toBeGreaterThan(0);
  }, 60_000);

  it('finds no fault at all with a correct operation, whatever it is sent', async () => {
    expect(await problemsOf('details')).toEqual([]);
    expect(h.stats.byOperation.get('details')?.get(422)).toBeGreaterThan(20);
  }, 60_000);
});
