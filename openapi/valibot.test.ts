import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { transformSync } from 'esbuild';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { valibotModule } from '../.ci/contract-valibot.mjs';
import * as messages from './form-messages';
import { defaultMessages, formMessages } from './form-messages';
import { loginBody, registerBody, updateNotificationBody } from './valibot';

const contract = parse(readFileSync(new URL('./portal.yaml', import.meta.url), 'utf8'));

/** The server's view of a component schema: Ajv over the same contract, as server/contract compiles it. */
function serverCheck(schemaName: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...contract, $id: 'portal' });
  const validate = ajv.getSchema(`portal#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`no schema ${schemaName}`);
  return (value: unknown) => validate(value) as boolean;
}

/** The generated module for a contract, evaluated (its imports are valibot and the messages). */
function generated(doc: unknown): Record<string, (m?: messages.Messages) => v.GenericSchema> {
  const { code } = transformSync(valibotModule(doc), { loader: 'ts', format: 'cjs' });
  const module = { exports: {} as Record<string, (m?: messages.Messages) => v.GenericSchema> };
  const require = (name: string) => (name === 'valibot' ? v : messages);
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports;
}

const loginInput = fc.record({
  email: fc.oneof(
    fc.emailAddress(),
    fc.string({ maxLength: 300 }),
    fc.constantFrom('', ' ', 'a@b', 'seller@demo.test', ` ${'x'.repeat(250)}@b.co `),
  ),
  password: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('', 'x'.repeat(128), 'x'.repeat(129))),
});

describe('valibot schemas derived from the contract', () => {
  it('never let a form send a login body the server refuses (LoginRequest)', () => {
    const server = serverCheck('LoginRequest');
    const schema = loginBody();
    fc.assert(
      fc.property(loginInput, (input) => {
        const result = v.safeParse(schema, input);
        if (result.success) expect(server(result.output)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('take every login body the server takes, but for an empty or blank field', () => {
    const server = serverCheck('LoginRequest');
    const schema = loginBody();
    fc.assert(
      fc.property(
        fc.record({
          email: fc.constantFrom('seller@demo.test', 'a.b-c+d@sub.example.co.uk', 'x@y.zz'),
          password: fc.string({ minLength: 1, maxLength: 128 }),
        }),
        (input) => {
          expect(server(input)).toBe(true);
          expect(v.safeParse(schema, input).success).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('follow the numeric constraints of an id exactly (NotificationIdRequest)', () => {
    const server = serverCheck('NotificationIdRequest');
    const schema = updateNotificationBody();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -5, max: 5 }),
          fc.integer(),
          fc.double(),
          fc.constantFrom(2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER),
        ),
        (id) => {
          expect(v.safeParse(schema, { id }).success).toBe(server({ id }));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('word their messages as the form says, else with the defaults', () => {
    const words = formMessages({ email: { required: 'Enter your email address.' } });
    const result = v.safeParse(loginBody(words), { email: '', password: '' }, { abortPipeEarly: true });
    expect(result.issues?.map((i) => i.message)).toEqual(['Enter your email address.', 'This field is required.']);
    expect(defaultMessages('proof', 'maxBytes', 10_485_760)).toBe('File size exceeds 10MB limit');
  });
});

describe('the generator', () => {
  const doc = (schema: unknown, media = 'application/json') => ({
    paths: { '/x': { post: { operationId: 'save', requestBody: { content: { [media]: { schema } } } } } },
    components: { schemas: { Money: { type: 'integer', minimum: 1 } } },
  });

  it('handles the JSON Schema the contract uses: refs, nullables, enums, arrays, nested and closed objects', () => {
    const { saveBody } = generated(
      doc({
        type: 'object',
        additionalProperties: false,
        required: ['amount', 'kind', 'tags'],
        properties: {
          amount: { $ref: '#/components/schemas/Money' },
          kind: { enum: ['ONLINE', 'CASH', 'CHEQUE'] },
          note: { type: ['string', 'null'], maxLength: 3 },
          tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, minItems: 1, maxItems: 2 },
          address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
        },
      }),
    );
    const schema = saveBody?.();
    if (!schema) throw new Error('no saveBody');
    const ok = (value: unknown) => v.safeParse(schema, value).success;
    expect(ok({ amount: 1, kind: 'CASH', tags: ['a'] })).toBe(true);
    expect(ok({ amount: 1, kind: 'CASH', tags: ['a'], note: null, address: { city: 'Leeds' } })).toBe(true);
    expect(ok({ amount: 0, kind: 'CASH', tags: ['a'] })).toBe(false);
    expect(ok({ amount: 1.5, kind: 'CASH', tags: ['a'] })).toBe(false);
    expect(ok({ amount: 1, kind: 'CARD', tags: ['a'] })).toBe(false);
    expect(ok({ amount: 1, kind: 'CASH', tags: [] })).toBe(false);
    expect(ok({ amount: 1, kind: 'CASH', tags: ['a', 'b', 'c'] })).toBe(false);
    expect(ok({ amount: 1, kind: 'CASH', tags: ['A'] })).toBe(false);
    expect(ok({ amount: 1, kind: 'CASH', tags: ['a'], note: 'long' })).toBe(false);
    expect(ok({ amount: 1, kind: 'CASH', tags: ['a'], address: { city: '' } })).toBe(false);
    expect(ok({ amount: 1, kind: 'CASH', tags: ['a'], extra: 1 })).toBe(false);
    const issues = v.safeParse(schema, { amount: 1, kind: 'CASH', tags: ['a'], address: {} }).issues ?? [];
    expect(issues.map((i) => i.path?.map((p) => p.key).join('.'))).toEqual(['address.city']);
  });

  it("says a name pattern's own words (x-form-message): a name needs a letter or a digit, as the server says", () => {
    const body = {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      password: 'Demo1234!',
      password_confirmation: 'Demo1234!',
    };
    expect(v.safeParse(registerBody(), body).success).toBe(true);
    expect(v.safeParse(registerBody(), { ...body, first_name: 'Zoë 2' }).success).toBe(true);
    for (const blank of ['   ', '\u200b', '--']) {
      const result = v.safeParse(registerBody(), { ...body, last_name: blank });
      expect(result.success).toBe(false);
      expect(result.issues?.[0]?.message).toBe('Use at least one letter or digit.');
    }
  });

  it('gives an upload field its size limit with the spec’s message', () => {
    const { saveBody } = generated(
      doc(
        {
          type: 'object',
          required: ['proof'],
          properties: { proof: { type: 'string', format: 'binary', 'x-max-bytes': 1_048_576 } },
        },
        'multipart/form-data',
      ),
    );
    const schema = saveBody?.();
    if (!schema) throw new Error('no saveBody');
    expect(v.safeParse(schema, { proof: new Blob([new Uint8Array(1_048_576)]) }).success).toBe(true);
    const big = v.safeParse(schema, { proof: new Blob([new Uint8Array(1_048_577)]) });
    expect(big.issues?.map((i) => i.message)).toEqual(['File size exceeds 1MB limit']);
  });

  it('checks decimals by multipleOf, items once by uniqueItems, and exactly one of two fields by a oneOf', () => {
    const { saveBody } = generated(
      doc({
        type: 'object',
        required: ['ids'],
        additionalProperties: false,
        oneOf: [{ required: ['price'] }, { required: ['percent'] }],
        'x-one-of-message': 'give exactly one of price and percent',
        properties: {
          ids: { type: 'array', uniqueItems: true, items: { type: 'integer' } },
          price: { type: 'integer' },
          percent: { type: 'number', multipleOf: 0.01 },
        },
      }),
    );
    const schema = saveBody?.();
    if (!schema) throw new Error('no saveBody');
    const messages = (value: unknown) => v.safeParse(schema, value).issues?.map((i) => i.message) ?? [];
    expect(messages({ ids: [1, 2], percent: 0.29 })).toEqual([]);
    expect(messages({ ids: [1], price: 5 })).toEqual([]);
    expect(messages({ ids: [1], percent: 12.345 })).toEqual(['Enter a multiple of 0.01.']);
    expect(messages({ ids: [1, 1], price: 5 })).toEqual(['Choose each one once.']);
    expect(messages({ ids: [1], price: 5, percent: 1 })).toEqual(['give exactly one of price and percent']);
    expect(messages({ ids: [1] })).toEqual(['give exactly one of price and percent']);
  });

  it('stops at a constraint it does not know, naming the operation and the keyword', () => {
    expect(() => valibotModule(doc({ type: 'object', minProperties: 1, properties: {} }))).toThrow(
      'POST /x (save): the form generator does not handle "minProperties"',
    );
    expect(() => valibotModule(doc({ type: 'string', format: 'ipv4' }))).toThrow(/format "ipv4"/);
  });
});
