// Writes openapi/valibot.ts: a valibot schema for the request body of every operation of the contract, made
// from the body's JSON Schema, so a form checks what the server will check without retyping it. Each
// schema is a function of the messages (openapi/form-messages.ts), so a form words its errors itself:
//
//   loginBody(formMessages({ email: { required: 'Enter your email address.' } }))
//
// The JSON Schema subset handled: type (one, or [type, 'null']), enum, const, string lengths, pattern and
// formats (email, date, date-time, uri, uuid, binary with its x-max-bytes), number bounds, multipleOf and integers, arrays
// (items, lengths, uniqueItems), objects (properties, required, additionalProperties, and a oneOf of required lists:
// exactly one of them, worded by x-one-of-message), $ref, oneOf, anyOf, allOf; annotations are ignored.
// Anything else stops the generator with the operation and the place named, so no constraint is dropped
// without anyone noticing.
//
// Form rules on top of the contract's: a required string must not be empty (an empty field is a missing
// value), and an email address is trimmed before it is checked.

const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'contentMediaType',
  'contentEncoding',
]);
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'properties',
  'required',
  'additionalProperties',
  '$ref',
  'oneOf',
  'anyOf',
  'allOf',
]);
const FORMATS = {
  email: (m) => `v.email(${m('format', "'email'")})`,
  date: (m) => `v.isoDate(${m('format', "'date'")})`,
  'date-time': (m) => `v.isoTimestamp(${m('format', "'date-time'")})`,
  uri: (m) => `v.url(${m('format', "'uri'")})`,
  url: (m) => `v.url(${m('format', "'uri'")})`,
  uuid: (m) => `v.uuid(${m('format', "'uuid'")})`,
};

const js = (value) => JSON.stringify(value).replaceAll('"', "'");

function resolveRef(doc, ref, where) {
  if (!ref.startsWith('#/')) throw new Error(`${where}: only local $ref are handled, not ${ref}`);
  let node = doc;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  if (!node) throw new Error(`${where}: $ref ${ref} points nowhere`);
  return node;
}

/** The valibot expression for `schema`, the field it checks named `field` in the messages. */
function emit(doc, schema, field, where, stack, required) {
  if (schema === true || (schema && Object.keys(schema).length === 0)) return 'v.unknown()';
  for (const key of Object.keys(schema)) {
    if (!HANDLED.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) {
      throw new Error(`${where}: the form generator does not handle "${key}"`);
    }
  }
  // m(rule, limit): the message call for this field
  const m = (rule, limit) => `m(${js(field)}, '${rule}'${limit === undefined ? '' : `, ${limit}`})`;
  if (schema.$ref) {
    if (stack.includes(schema.$ref)) throw new Error(`${where}: ${schema.$ref} refers to itself`);
    return emit(doc, resolveRef(doc, schema.$ref, where), field, where, [...stack, schema.$ref], required);
  }
  // an object that needs exactly one of some fields (a oneOf whose branches only list required fields)
  if (schema.oneOf?.every((b) => Object.keys(b).every((k) => k === 'required'))) {
    const { oneOf, 'x-one-of-message': words, ...rest } = schema;
    const lists = js(oneOf.map((b) => b.required));
    const base = emit(doc, rest, field, where, stack, required);
    return `v.pipe(${base}, v.check((o) => ${lists}.filter((l) => l.every((k) => (o as Record<string, unknown>)[k] !== undefined)).length === 1, ${words ? js(words) : m('type')}))`;
  }
  for (const combinator of ['oneOf', 'anyOf']) {
    if (schema[combinator]) {
      const options = schema[combinator].map((s, i) =>
        emit(doc, s, field, `${where}/${combinator}/${i}`, stack, required),
      );
      return `v.union([${options.join(', ')}], ${m('type')})`;
    }
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((s, i) => emit(doc, s, field, `${where}/allOf/${i}`, stack, required));
    return `v.intersect([${parts.join(', ')}], ${m('type')})`;
  }
  if (schema.const !== undefined) return `v.literal(${js(schema.const)}, ${m('enum')})`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nonNull = types.filter((t) => t !== 'null');
  if (types.includes('null') && nonNull.length === 1) {
    return `v.nullable(${emit(doc, { ...schema, type: nonNull[0] }, field, where, stack, required)})`;
  }
  if (nonNull.length > 1) throw new Error(`${where}: a type list other than [type, 'null'] is not handled`);
  const type = nonNull[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  if (schema.enum) {
    if (schema.enum.every((e) => typeof e === 'string')) return `v.picklist(${js(schema.enum)}, ${m('enum')})`;
    return `v.union([${schema.enum.map((e) => `v.literal(${js(e)})`).join(', ')}], ${m('enum')})`;
  }
  const pipe = (base, steps) => (steps.length ? `v.pipe(${[base, ...steps].join(', ')})` : base);
  switch (type) {
    case 'string': {
      if (schema.format === 'binary') {
        // the upload limit the contract declares (x-max-bytes); the server checks the kind by the file's bytes
        const limit = schema['x-max-bytes'];
        return limit === undefined
          ? `v.blob(${m('type')})`
          : `v.pipe(v.blob(${m('type')}), v.maxSize(${limit}, ${m('maxBytes', limit)}))`;
      }
      const steps = [];
      if (schema.format === 'email') steps.push('v.trim()');
      if (required) steps.push(`v.nonEmpty(${m('required')})`);
      if (schema.maxLength !== undefined)
        steps.push(`v.maxLength(${schema.maxLength}, ${m('maxLength', schema.maxLength)})`);
      if (schema.minLength !== undefined && !(required && schema.minLength <= 1)) {
        steps.push(`v.minLength(${schema.minLength}, ${m('minLength', schema.minLength)})`);
      }
      if (schema.pattern !== undefined) {
        // the contract's own words for the pattern where it has them (a name: 'Use at least one letter or digit.')
        const words = schema['x-form-message'] ?? null;
        steps.push(`v.regex(new RegExp(${js(schema.pattern)}, 'u'), ${words === null ? m('pattern') : js(words)})`);
      }
      if (schema.format !== undefined) {
        const format = FORMATS[schema.format];
        if (!format) throw new Error(`${where}: the form generator does not handle the format "${schema.format}"`);
        steps.push(format(m));
      }
      return pipe(`v.string(${m('type')})`, steps);
    }
    case 'integer':
    case 'number': {
      const steps = [];
      if (type === 'integer') steps.push(`v.integer(${m('integer')})`);
      if (schema.minimum !== undefined) steps.push(`v.minValue(${schema.minimum}, ${m('minimum', schema.minimum)})`);
      if (schema.maximum !== undefined) steps.push(`v.maxValue(${schema.maximum}, ${m('maximum', schema.maximum)})`);
      if (schema.exclusiveMinimum !== undefined) {
        steps.push(`v.gtValue(${schema.exclusiveMinimum}, ${m('minimum', schema.exclusiveMinimum)})`);
      }
      if (schema.exclusiveMaximum !== undefined) {
        steps.push(`v.ltValue(${schema.exclusiveMaximum}, ${m('maximum', schema.exclusiveMaximum)})`);
      }
      if (schema.multipleOf !== undefined) {
        // by the step's decimals, not the remainder: 0.29 % 0.01 is not 0 in binary floating point
        const decimals = (String(schema.multipleOf).split('.')[1] ?? '').length;
        steps.push(
          `v.check((n) => Number.isInteger(Number((n / ${schema.multipleOf}).toFixed(${Math.max(0, 9 - decimals)}))) && Number(n.toFixed(${decimals})) === n, ${m('multipleOf', schema.multipleOf)})`,
        );
      }
      return pipe(`v.number(${m('type')})`, steps);
    }
    case 'boolean':
      return `v.boolean(${m('type')})`;
    case 'null':
      return `v.null(${m('type')})`;
    case 'array': {
      const items = schema.items ? emit(doc, schema.items, field, `${where}/items`, stack, false) : 'v.unknown()';
      const steps = [];
      if (schema.minItems !== undefined)
        steps.push(`v.minLength(${schema.minItems}, ${m('minItems', schema.minItems)})`);
      if (schema.maxItems !== undefined)
        steps.push(`v.maxLength(${schema.maxItems}, ${m('maxItems', schema.maxItems)})`);
      if (schema.uniqueItems) {
        steps.push(`v.check((a) => new Set(a.map((x) => JSON.stringify(x))).size === a.length, ${m('uniqueItems')})`);
      }
      return pipe(`v.array(${items}, ${m('type')})`, steps);
    }
    case 'object': {
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {}).map(([name, sub]) => {
        const path = field ? `${field}.${name}` : name;
        const inner = emit(doc, sub, path, `${where}/properties/${name}`, stack, required.has(name));
        return `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : js(name)}: ${required.has(name) ? inner : `v.optional(${inner})`}`;
      });
      const shape = `{ ${entries.join(', ')} }`;
      if (schema.additionalProperties === false) return `v.strictObject(${shape}, ${m('type')})`;
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const rest = emit(doc, schema.additionalProperties, field, `${where}/additionalProperties`, stack, false);
        return `v.objectWithRest(${shape}, ${rest}, ${m('type')})`;
      }
      return `v.object(${shape}, ${m('type')})`;
    }
    default:
      throw new Error(`${where}: a schema without a type is not handled`);
  }
}

const HEADER = '// Generated by .ci/contract-valibot.mjs from openapi/portal.yaml (npm run contract:gen): do not edit.';

/** Each request body of the contract `doc` (parsed YAML): its tag and the lines of its schema's export. */
function* bodies(doc) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const content = op?.requestBody?.content;
      if (!content) continue;
      const [media, body] =
        Object.entries(content).find(([type]) => type === 'application/json' || type === 'multipart/form-data') ?? [];
      if (!body?.schema) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path}: a request body needs an operationId`);
      const where = `${method.toUpperCase()} ${path} (${op.operationId})`;
      const tag = op.tags?.[0] ?? 'untagged';
      if (!/^[a-z][a-z0-9-]*$/.test(tag)) throw new Error(`${where}: its tag must be lower-case letters and dashes`);
      const expression = emit(doc, body.schema, '', where, [], true);
      yield {
        tag,
        lines: [
          `/** The ${media} body of ${method.toUpperCase()} ${path} (${op.operationId}). */`,
          `export const ${op.operationId}Body = (m: Messages = defaultMessages) =>`,
          `  ${expression};`,
          '',
        ],
      };
    }
  }
}

const moduleHead = (messages) => [
  HEADER,
  "import * as v from 'valibot';",
  `import { defaultMessages, type Messages } from '${messages}';`,
  '',
];

/** Every schema of the contract `doc` in one module's text (the tests evaluate it). */
export function valibotModule(doc) {
  const out = moduleHead('./form-messages');
  for (const { lines } of bodies(doc)) out.push(...lines);
  return out.join('\n');
}

/**
 * The generated modules for the contract `doc`, by path under openapi/: one module per contract tag,
 * `valibot/<tag>.ts`, with the schemas of that tag's request bodies, and `valibot.ts`, which re-exports them all.
 * One module per tag rather than one for everything: a bundler puts a module in one chunk, so a single module
 * imported by the /login page carried every form's schema into the first load.
 */
export function valibotModules(doc) {
  /** tag -> lines of its module */
  const byTag = new Map();
  for (const { tag, lines } of bodies(doc)) {
    if (!byTag.has(tag)) byTag.set(tag, moduleHead('../form-messages'));
    byTag.get(tag).push(...lines);
  }
  const tags = [...byTag.keys()].sort();
  const modules = new Map([
    [
      'valibot.ts',
      [
        HEADER,
        '// A valibot schema per request body, for forms; each tag of the contract has its own module (valibot/).',
        ...tags.map((tag) => `export * from './valibot/${tag}';`),
        '',
      ].join('\n'),
    ],
  ]);
  for (const tag of tags) modules.set(`valibot/${tag}.ts`, byTag.get(tag).join('\n'));
  return modules;
}
