import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judge, samples, stringSlots } from './cases';
import { type Doc, modelOf, readContract, resolveRefs, type Schema } from './contract-model';
import { withoutOptionalPublicIds } from './idor';
import { deleteIn, fieldsOf, fieldVariants, MISSING, setIn, sizedPattern, validArbitrary } from './schema-arbitrary';
import { createValidators } from './validators';

/** One operation whose body is `schema`, so the harness's own validators judge the generated values. */
function bodyJudge(schema: Schema) {
  const doc: Doc = {
    paths: {
      '/x': {
        post: {
          operationId: 'x',
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };
  const model = modelOf(doc);
  const v = createValidators(doc);
  const op = model.built[0];
  if (!op) throw new Error('no operation');
  return (value: unknown) => v.bodyOk(op, value);
}

const exact: Array<[string, Schema]> = [
  ['bounded integers', { type: 'integer', minimum: 1, maximum: 9007199254740991 }],
  ['exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['lengths in code points', { type: 'string', minLength: 3, maxLength: 8 }],
  ['enums', { type: 'string', enum: ['GBP', 'EUR', 'USD', 'AED'] }],
  ['nullable', { type: ['string', 'null'], maxLength: 4 }],
  ['dates', { type: 'string', format: 'date-time' }],
  ['emails', { type: 'string', format: 'email', minLength: 3, maxLength: 254 }],
  [
    'closed objects with required fields',
    {
      type: 'object',
      required: ['id', 'tags'],
      additionalProperties: false,
      properties: {
        id: { type: 'integer', minimum: 1 },
        note: { type: 'string', maxLength: 5 },
        tags: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
          items: { type: 'string', enum: ['a', 'b', 'c'] },
        },
      },
    },
  ],
  ['one of', { oneOf: [{ type: 'integer', minimum: 10 }, { type: 'boolean' }] }],
  // the two-factor challenge: a repeated unit with a long minimum length (it once made the generator spin forever)
  [
    'a repeated pattern with a long minimum',
    { type: 'string', minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
  ],
];

describe('arbitraries from JSON Schema', () => {
  it.each(exact)('every value generated for %s is one the schema accepts', (_name, schema) => {
    const ok = bodyJudge(schema);
    fc.assert(
      fc.property(validArbitrary(schema), (v) => ok(v)),
      { seed: 42, numRuns: 300 },
    );
  });

  it('breaks every field of a schema in ways the schema refuses', () => {
    const schema = exact[7]?.[1] as Schema;
    const ok = bodyJudge(schema);
    const base = { id: 1, tags: ['a'] };
    expect(ok(base)).toBe(true);
    for (const field of fieldsOf(schema)) {
      const variants = fieldVariants(field);
      expect(variants.length, field.path.join('.')).toBeGreaterThan(5);
      const breaking = variants.filter((x) => /instead|above|below|missing|10k items|wrong item type/.test(x.label));
      expect(breaking.length, field.path.join('.')).toBeGreaterThan(3);
      for (const x of breaking) {
        expect(ok(x.value === MISSING ? deleteIn(base, field.path) : setIn(base, field.path, x.value)), x.label).toBe(
          false,
        );
      }
    }
  });

  it('writes the length bounds into a pattern of one repeated unit, and leaves any other pattern alone', () => {
    expect(sizedPattern('^[A-Za-z0-9_-]+$', 20, 200)).toBe('^[A-Za-z0-9_-]{20,84}$');
    expect(sizedPattern('^[0-9]*$', 0, 8)).toBe('^[0-9]{0,8}$');
    expect(sizedPattern('^\\d+$', 3, undefined)).toBe('^\\d{3,27}$');
    expect(sizedPattern('^[0-9]{6}$', 6, 6)).toBe('^[0-9]{6}$');
    expect(sizedPattern('^/(?![/\\\\])', 1, 200)).toBe('^/(?![/\\\\])');
    expect(sizedPattern('^[a-z]+$', 0, undefined)).toBe('^[a-z]+$');
  });

  it('resolves $refs, and stops at a cycle', () => {
    const doc = {
      components: {
        schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } },
      },
    };
    const resolved = resolveRefs<unknown>({ $ref: '#/components/schemas/Node' }, doc) as {
      properties: { next: Record<string, unknown> };
    };
    expect(resolved.properties.next).toEqual({ 'x-cycle': '#/components/schemas/Node' });
  });
});

describe('requests from the contract', () => {
  const model = readContract();
  const v = createValidators(model.doc);

  it('derives, for every built operation, requests the contract accepts', () => {
    for (const op of model.built) {
      const list = samples(op, 30, 3);
      const accepted = list.filter((p) => judge(op, p, v).kind === 'accept').length;
      expect(accepted, op.operationId).toBeGreaterThan(15);
    }
  });

  it('the IDOR base leaves out optional public ids (a random match id names no match) and keeps the rest', () => {
    const op = model.built.find((o) => o.operationId === 'addTradeTracking');
    if (!op) throw new Error('addTradeTracking is not built');
    const parts = { path: {}, query: {}, headers: {}, json: { step: 'search', match_id: 987654, booking_id: 5 } };
    expect(withoutOptionalPublicIds(op, parts).json).toEqual({ step: 'search', booking_id: 5 });
    expect(parts.json.match_id).toBe(987654);
  });

  it('finds the string slots the naughty strings go into', () => {
    const login = model.built.find((o) => o.operationId === 'login');
    expect(login && stringSlots(login).map((s) => s.label)).toEqual(['body.email', 'body.password']);
  });
});
