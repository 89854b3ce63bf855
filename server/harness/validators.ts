import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Doc, Op, Param } from './contract-model';

/**
 * Ajv (JSON Schema 2020-12) compiled from the same YAML: what the contract accepts (bodies as sent, parameters
 * with the string coercion a query or a path needs) and what it promises (the answer of each status).
 */
export interface Validators {
  /** True when the JSON body is one the operation accepts. */
  bodyOk(op: Op, body: unknown): boolean;
  /** True when the plain fields of a multipart body are acceptable (strings coerced, as a form sends them). */
  fieldsOk(op: Op, fields: Record<string, unknown>): boolean;
  /** True when these parameter values (strings, or arrays of strings) are acceptable where they are sent. */
  paramsOk(op: Op, where: Param['in'], values: Record<string, unknown>): boolean;
  /** Problems of an answer against the schema the operation declares for its status (none when it matches). */
  answerProblems(op: Op, status: number, body: unknown): string[];
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** A schema compiled on its own whose `$ref`s point into the document registered as `portal`. */
const intoDocument = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema ?? {}).replaceAll('"$ref":"#/', '"$ref":"portal#/')) as object;

export function createValidators(doc: Doc): Validators {
  const make = (options: ConstructorParameters<typeof Ajv2020>[0]) => {
    // as the server's (server/contract/contract.ts): 0.29 is a multiple of 0.01
    const ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      validateFormats: true,
      multipleOfPrecision: 9,
      ...options,
    });
    addFormats(ajv);
    ajv.addSchema(doc as object, 'portal');
    return ajv;
  };
  const bodies = make({});
  const params = make({ coerceTypes: 'array', useDefaults: true });
  const fields = make({ coerceTypes: true, useDefaults: true });
  const answers = make({});

  const cache = new Map<string, ValidateFunction>();
  const memo = (key: string, build: () => ValidateFunction) => {
    let v = cache.get(key);
    if (!v) {
      v = build();
      cache.set(key, v);
    }
    return v;
  };
  const clone = <T>(v: T): T => (v === undefined ? v : (structuredClone(v) as T));

  return {
    bodyOk(op, body) {
      if (!op.body) return body === undefined;
      const v = memo(`body ${op.operationId}`, () => bodies.compile({ $ref: `portal${op.body?.pointer}` }));
      return v(clone(body));
    },
    fieldsOk(op, values) {
      const schema = (op.body?.schema ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
      const v = memo(`fields ${op.operationId}`, () => {
        const isFile = (p: unknown) => {
          const s = p as Record<string, unknown>;
          const one = (s?.type === 'array' ? s.items : s) as Record<string, unknown> | undefined;
          return (
            !!one && one.type === 'string' && (one.format === 'binary' || typeof one.contentMediaType === 'string')
          );
        };
        const plain = Object.entries(schema.properties ?? {}).filter(([, p]) => !isFile(p));
        return fields.compile(
          intoDocument({
            ...schema,
            properties: Object.fromEntries(plain),
            required: (schema.required ?? []).filter((k) => plain.some(([name]) => name === k)),
          }),
        );
      });
      return v(clone(values));
    },
    paramsOk(op, where, values) {
      const list = op.params.filter((p) => p.in === where);
      if (list.length === 0) return true;
      const key = (p: Param) => (where === 'header' ? p.name.toLowerCase() : p.name);
      const v = memo(`${where} ${op.operationId}`, () =>
        params.compile({
          type: 'object',
          properties: Object.fromEntries(list.map((p) => [key(p), intoDocument(p.schema)])),
          required: list.filter((p) => p.required).map(key),
        }),
      );
      return v(clone(values));
    },
    answerProblems(op, status, body) {
      const answer = op.answers.get(String(status)) ?? op.answers.get(`${String(status)[0]}XX`);
      if (!answer) return [`${op.operationId} does not declare the status ${status}`];
      if (!answer.pointer) return [];
      const v = memo(`answer ${op.operationId} ${status}`, () => answers.compile({ $ref: `portal${answer.pointer}` }));
      if (v(body)) return [];
      return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    },
  };
}
