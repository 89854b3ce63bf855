import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type KeywordDefinition, type ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaValidateFunction } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { load } from 'js-yaml';
import type { components } from '../../openapi/schema';
import { isPasswordMessage, passwordProblem } from '../auth/password-strength';
import { MESSAGES } from '../http/errors';
import { QUOTAS, type QuotaName, quotaStatus } from '../quotas/limits';

export const CONTRACT_FILE = fileURLToPath(new URL('../../openapi/portal.yaml', import.meta.url));
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type PermissionName = components['schemas']['PermissionName'];
export type ApiScope = components['schemas']['ApiScope'];
/** `x-role`: who may call an operation when a permission does not say it (the back office, sellers only). */
export const ROLES = ['admin', 'seller'] as const;
export type Role = (typeof ROLES)[number];

/** The spec's default upload limit (section 9): 5 MB unless the file field says otherwise (`x-max-bytes`). */
export const DEFAULT_UPLOAD_BYTES = 5 * 1024 * 1024;

export interface FieldError {
  path: string;
  message: string;
}

/** A file field of a multipart operation, from its schema and its `encoding`. */
export interface FileField {
  name: string;
  required: boolean;
  /** An array of files (`type: array` of binary strings) rather than one. */
  multiple: boolean;
  maxItems: number;
  maxBytes: number;
  /** Allowed kinds, as the spec names them: `pdf`, `jpg`, `jpeg`, `png`, `xlsx`, `csv`... */
  types: readonly string[];
}

export interface UploadSpec {
  files: ReadonlyMap<string, FileField>;
  /** The plain (non-file) fields the operation accepts. */
  fieldNames: ReadonlySet<string>;
}

/** One operation of the contract, with validators compiled (on first use) from the contract's own schemas. */
export interface Operation {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** The same path in Hono's syntax: `/ticket/delete/:id`. */
  routePath: string;
  secured: boolean;
  /** The permission (`x-permission`) the caller needs, checked by the router after the token; null for none. */
  permission: PermissionName | null;
  /** `x-role`: the kind of user the caller must be (admin for the back office); null for any. */
  role: Role | null;
  /** `x-kyc-exempt`: a seller whose KYC is not approved may call it (the calls the KYC page needs). */
  kycExempt: boolean;
  /** `x-api-scope`: the scope a seller's API token needs to call it; null: API tokens may not call it at all. */
  apiScope: ApiScope | null;
  /** `x-transaction`: the handler runs inside one database transaction; a throw or an error reply undoes it. */
  transaction: boolean;
  /** `x-idempotent`: needs an `Idempotency-Key`; the first successful reply is kept and replayed for 24 hours. */
  idempotent: boolean;
  /**
   * `x-cache-ms`: a GET whose 200 answers the server may serve again to the same caller for the same path and
   * query, for this many milliseconds and only while the database is unchanged (server/http/answer-cache.ts);
   * 0 for none.
   */
  cacheMs: number;
  /**
   * `x-quota`: the caps (server/quotas/limits.ts) the operation enforces, each answered with its declared 409 or
   * 429; the router enforces `upload-bytes` itself, which every upload must name.
   */
  quotas: ReadonlySet<QuotaName>;
  planned: boolean;
  bodyMediaType: 'application/json' | 'multipart/form-data' | null;
  bodyRequired: boolean;
  upload: UploadSpec | null;
  /** Query parameters declared as arrays: every value given arrives (`?status=a&status=b`). */
  arrayQuery: ReadonlySet<string>;
  /** Header parameters the operation declares (lower case), validated like query parameters. */
  headers: readonly string[];
  responses: ReadonlySet<string>;
  validateBody(body: unknown): FieldError[];
  /** The plain fields of a multipart body (strings, coerced to the declared types in place). */
  validateFields(fields: Record<string, unknown>): FieldError[];
  validateQuery(query: Record<string, unknown>): FieldError[];
  validatePath(params: Record<string, unknown>): FieldError[];
  validateHeaders(headers: Record<string, unknown>): FieldError[];
  /** Problems of an answer against the contract: an undeclared status, or a body off its schema. */
  validateResponse(status: number, body: unknown): string[];
}

export interface Contract {
  operations: readonly Operation[];
  find(method: string, path: string): Operation | undefined;
  byId(operationId: string): Operation | undefined;
}

interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: { type?: string | string[] } & Record<string, unknown>;
  $ref?: string;
}
interface MediaObject {
  schema?: Record<string, unknown>;
  encoding?: Record<string, { contentType?: string }>;
}
interface OperationObject {
  operationId: string;
  security?: unknown[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaObject> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: object }> }>;
  'x-status'?: string;
  'x-permission'?: string;
  'x-role'?: string;
  'x-kyc-exempt'?: boolean;
  'x-api-scope'?: string;
  'x-transaction'?: boolean;
  'x-idempotent'?: boolean;
  'x-cache-ms'?: number;
  'x-quota'?: string[];
}
interface Document {
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: { PermissionName?: { enum?: string[] }; ApiScope?: { enum?: string[] } };
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
  };
}

const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** A parameter's schema may `$ref` the contract's components; compiled on its own, the ref must name the file. */
const inDocument = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"portal#/')) as object;

/**
 * A pattern's words for a person (`x-pattern-message` beside it in the contract: 'must contain a letter or a
 * digit' for a name), read from the contract as it loads; without them a field says 'must match pattern …'.
 */
const patternMessages = new Map<string, string>();
/**
 * A oneOf's words (`x-one-of-message` beside it: 'give exactly one of price and change_percent'), by the oneOf's
 * own text; without them a body says 'must match exactly one schema in oneOf' and what each branch missed.
 */
const oneOfMessages = new Map<string, string>();

function collectPatternMessages(node: unknown) {
  if (Array.isArray(node)) for (const item of node) collectPatternMessages(item);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (typeof o.pattern === 'string' && typeof o['x-pattern-message'] === 'string') {
      patternMessages.set(o.pattern, o['x-pattern-message']);
    }
    if (Array.isArray(o.oneOf) && typeof o['x-one-of-message'] === 'string') {
      oneOfMessages.set(JSON.stringify(o.oneOf), o['x-one-of-message']);
    }
    for (const value of Object.values(o)) collectPatternMessages(value);
  }
}

/** 'must have at most two decimals' for a step of 0.01; 'must be a multiple of 5' otherwise. */
function stepMessage(step: number): string {
  const decimals = /^0\.0*1$/.test(String(step)) ? String(step).length - 2 : null;
  if (decimals === null) return `must be a multiple of ${step}`;
  return `must have at most ${['no', 'one', 'two', 'three', 'four'][decimals] ?? decimals} decimal${decimals === 1 ? '' : 's'}`;
}

function toFieldErrors(prefix: string, errors: ErrorObject[] | null | undefined): FieldError[] {
  const all = errors ?? [];
  // a worded oneOf speaks for itself: what each of its branches missed is not the person's problem
  const worded = all.filter((e) => e.keyword === 'oneOf' && oneOfMessages.has(JSON.stringify(e.schema)));
  const shown = all.filter((e) => !worded.some((w) => e.schemaPath.startsWith(`${w.schemaPath}/`)));
  return shown.map((e) => {
    const missing =
      e.keyword === 'required' ? `/${String((e.params as { missingProperty: string }).missingProperty)}` : '';
    const extra =
      e.keyword === 'additionalProperties'
        ? `/${String((e.params as { additionalProperty: string }).additionalProperty)}`
        : '';
    const path = `${prefix}${e.instancePath}${missing}${extra}`;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') message = 'is required';
    if (e.keyword === 'additionalProperties') message = 'is not an accepted field';
    if (e.keyword === 'pattern')
      message = patternMessages.get(String((e.params as { pattern: string }).pattern)) ?? message;
    if (e.keyword === 'oneOf') message = oneOfMessages.get(JSON.stringify(e.schema)) ?? message;
    if (e.keyword === 'multipleOf') message = stepMessage(Number((e.params as { multipleOf: number }).multipleOf));
    if (e.keyword === 'uniqueItems') message = 'must not repeat an item';
    if (e.keyword === 'enum')
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    return { path, message };
  });
}

/**
 * `x-password-strength: true` on a string (NewPassword): the server's judge of a new password
 * (server/auth/password-strength.ts). A value its length limits refuse already is left to them.
 */
const PASSWORD_STRENGTH: KeywordDefinition = {
  keyword: 'x-password-strength',
  type: 'string',
  errors: true,
  validate: function strongEnough(on: unknown, data: unknown, parent?: { minLength?: unknown; maxLength?: unknown }) {
    if (on !== true || typeof data !== 'string') return true;
    if (data.length < Number(parent?.minLength ?? 0) || data.length > Number(parent?.maxLength ?? Infinity))
      return true;
    const problem = passwordProblem(data);
    if (!problem) return true;
    (strongEnough as SchemaValidateFunction).errors = [
      { keyword: 'x-password-strength', message: problem, params: {} },
    ];
    return false;
  },
};

/**
 * The message of a 422 for these field errors: a refused password's own words (they say what to choose
 * instead), else the general one.
 */
export const validationMessage = (errors: readonly FieldError[]): string =>
  errors.find((e) => isPasswordMessage(e.message))?.message ?? MESSAGES.validation;

/** Compiles on first use: 140 operations' validators are not all needed to start serving. */
function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

const isBinary = (s: unknown): boolean => {
  const o = s as Record<string, unknown> | undefined;
  return !!o && o.type === 'string' && (o.format === 'binary' || typeof o.contentMediaType === 'string');
};

/** The kinds an upload field accepts, from `encoding.<field>.contentType` (MIME types) or `x-file-types`. */
const KIND_OF_MIME: Record<string, string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'text/csv': ['csv'],
  'application/xml': ['xml'],
  'application/vnd.apple.pkpass': ['pkpass'],
};

function uploadSpecOf(operationId: string, media: MediaObject): UploadSpec {
  const schema = (media.schema ?? {}) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const files = new Map<string, FileField>();
  const fieldNames = new Set<string>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const multiple = prop.type === 'array' && isBinary(prop.items);
    if (!multiple && !isBinary(prop)) {
      fieldNames.add(name);
      continue;
    }
    const one = (multiple ? prop.items : prop) as Record<string, unknown>;
    const listed = (media.encoding?.[name]?.contentType ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const types = [
      ...new Set([...listed.flatMap((m) => KIND_OF_MIME[m] ?? []), ...((one['x-file-types'] as string[]) ?? [])]),
    ];
    if (types.length === 0) throw new Error(`${operationId}: file field '${name}' declares no accepted types`);
    files.set(name, {
      name,
      required: (schema.required ?? []).includes(name),
      multiple,
      maxItems: multiple ? Number(prop.maxItems ?? 10) : 1,
      maxBytes: Number(one['x-max-bytes'] ?? DEFAULT_UPLOAD_BYTES),
      types,
    });
  }
  if (files.size === 0) throw new Error(`${operationId}: a multipart body needs at least one file field`);
  return { files, fieldNames };
}

const DECIMAL = { integer: /^-?[0-9]+$/, number: /^-?[0-9]+(\.[0-9]+)?$/ } as const;

/**
 * The values of fields declared integer or number (directly, by a components $ref, or as the items of an array)
 * whose text is not written in decimals: Ajv's coercion would take '0x10', '1e3' or ' 12 ' for 16, 1000 and 12
 * (JavaScript's reading), which no form or link sends. For multipart fields and query and path parameters.
 */
function decimalProblems(
  declared: ReadonlyArray<readonly [string, Record<string, unknown>]>,
  doc: Document,
  values: Record<string, unknown>,
  base: string,
): FieldError[] {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const resolve = (schema: Record<string, unknown> | undefined) =>
    typeof schema?.$ref === 'string' ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
  const problems: FieldError[] = [];
  for (const [name, schema] of declared) {
    let resolved = resolve(schema);
    if (resolved?.type === 'array') resolved = resolve(resolved.items as Record<string, unknown> | undefined);
    const type = resolved?.type === 'integer' || resolved?.type === 'number' ? resolved.type : null;
    const value = values[name];
    if (!type || value === undefined) continue;
    for (const text of [value].flat()) {
      if (typeof text === 'string' && !DECIMAL[type].test(text)) {
        problems.push({ path: `${base}/${name}`, message: `must be ${type}` });
        break;
      }
    }
  }
  return problems;
}

/** Field errors with the decimal problems of fields the schema found nothing wrong with. */
const withDecimal = (errors: FieldError[], written: FieldError[]) => [
  ...errors,
  ...written.filter((w) => !errors.some((e) => e.path === w.path)),
];

/** The multipart schema without its file fields: what the plain fields are validated against. */
function fieldsSchemaOf(media: MediaObject, upload: UploadSpec): object {
  const schema = (media.schema ?? {}) as Record<string, unknown> & {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => !upload.files.has(k))),
    required: (schema.required ?? []).filter((k) => !upload.files.has(k)),
  };
}

/** The statuses the router itself may answer for an operation: the contract must declare each of them. */
export function routerStatuses(op: Pick<Operation, 'secured' | 'bodyMediaType' | 'planned'> & { params: boolean }) {
  const needed = new Set<string>();
  if (op.secured) needed.add('401').add('403');
  if (op.planned) return needed.add('501');
  if (op.bodyMediaType === 'application/json') needed.add('400').add('413').add('415').add('422');
  if (op.bodyMediaType === 'multipart/form-data') needed.add('400').add('413').add('415').add('422');
  if (op.params) needed.add('422');
  return needed;
}

/**
 * Reads openapi/portal.yaml and describes every operation, with validators for its body, parameters and
 * answers compiled from the contract's own schemas on first use. The contract is the only description of the
 * shapes and of the rules the router enforces: a rule the router cannot honour refuses to start the server.
 */
export function loadContract(file = CONTRACT_FILE): Contract {
  // js-yaml: the contract parses in a third of the time the `yaml` package takes, at every start
  const doc = load(readFileSync(file, 'utf8')) as Document;
  collectPatternMessages(doc.components?.schemas);
  const permissionNames = new Set(doc.components?.schemas?.PermissionName?.enum ?? []);
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
  // verbose: a oneOf's error carries its schema, by which its words are found; multipleOfPrecision: 0.29 is a
  // multiple of 0.01 (in binary floating point 0.29 / 0.01 is 28.999999999999996)
  const bodies = new Ajv2020({
    strict: false,
    validateSchema: false,
    allErrors: true,
    validateFormats: true,
    verbose: true,
    multipleOfPrecision: 9,
  });
  const params = new Ajv2020({
    strict: false,
    validateSchema: false,
    allErrors: true,
    coerceTypes: 'array',
    useDefaults: true,
  });
  const fields = new Ajv2020({
    strict: false,
    validateSchema: false,
    allErrors: true,
    coerceTypes: true,
    useDefaults: true,
    verbose: true,
    multipleOfPrecision: 9,
  });
  const answers = new Ajv2020({ strict: false, validateSchema: false, allErrors: true, validateFormats: true });
  for (const ajv of [bodies, params, fields, answers]) {
    addFormats(ajv);
    ajv.addSchema(doc, 'portal');
  }
  for (const ajv of [bodies, fields]) ajv.addKeyword(PASSWORD_STRENGTH);
  const resolveParam = (p: ParameterObject): ParameterObject => {
    if (!p.$ref) return p;
    const name = p.$ref.replace('#/components/parameters/', '');
    const found = doc.components?.parameters?.[name];
    if (!found) throw new Error(`unknown parameter ${p.$ref}`);
    return found;
  };

  const operations: Operation[] = [];
  const problems: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters as ParameterObject[] | undefined) ?? []).map(resolveParam);
    for (const method of HTTP_METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const id = op.operationId;
      const all = [...shared, ...(op.parameters ?? []).map(resolveParam)];
      const compileParams = (where: 'query' | 'path' | 'header'): (() => ValidateFunction | null) =>
        lazy(() => {
          const list = all.filter((p) => p.in === where);
          if (list.length === 0) return null;
          const key = (p: ParameterObject) => (where === 'header' ? p.name.toLowerCase() : p.name);
          return params.compile({
            type: 'object',
            properties: Object.fromEntries(list.map((p) => [key(p), inDocument(p.schema ?? {})])),
            required: list.filter((p) => p.required || where === 'path').map(key),
          });
        });
      const media = op.requestBody ? (Object.keys(op.requestBody.content)[0] as Operation['bodyMediaType']) : null;
      const mediaObject = media ? op.requestBody?.content[media] : undefined;
      const bodyPointer = media
        ? `portal#/paths/${pointerEscape(path)}/${method}/requestBody/content/${pointerEscape(media)}/schema`
        : null;
      const bodyValidator = lazy(() =>
        bodyPointer && media === 'application/json' ? bodies.compile({ $ref: bodyPointer }) : null,
      );
      const planned = op['x-status'] === 'planned';
      const upload = media === 'multipart/form-data' && mediaObject && !planned ? uploadSpecOf(id, mediaObject) : null;
      const fieldsValidator = lazy(() =>
        upload && mediaObject ? fields.compile(inDocument(fieldsSchemaOf(mediaObject, upload))) : null,
      );
      const declaredIn = (where: 'query' | 'path') =>
        all.filter((p) => p.in === where).map((p) => [p.name, (p.schema ?? {}) as Record<string, unknown>] as const);
      const queryDeclared = declaredIn('query');
      const pathDeclared = declaredIn('path');
      const queryValidator = compileParams('query');
      const pathValidator = compileParams('path');
      const headerValidator = compileParams('header');
      const responseValidators = new Map<string, () => ValidateFunction | null>();
      for (const [status, response] of Object.entries(op.responses)) {
        const pointer = response.$ref
          ? `portal${response.$ref}/content/application~1json/schema`
          : `portal#/paths/${pointerEscape(path)}/${method}/responses/${status}/content/application~1json/schema`;
        const declared = response.$ref
          ? doc.components?.responses?.[response.$ref.replace('#/components/responses/', '')]
          : response;
        const hasJson = !!declared?.content?.['application/json']?.schema;
        responseValidators.set(
          status,
          lazy(() => (hasJson ? answers.compile({ $ref: pointer }) : null)),
        );
      }

      const security = op.security ?? doc.security ?? [];
      const secured = security.length > 0;
      const rawPermission = op['x-permission'] ?? null;
      const role = (op['x-role'] ?? null) as Role | null;
      if (rawPermission !== null && rawPermission !== 'none' && !permissionNames.has(rawPermission)) {
        // a typo here would lock everyone out: fail at start
        problems.push(`${id}: x-permission '${rawPermission}' is not a PermissionName (or 'none')`);
      }
      if (role !== null && !(ROLES as readonly string[]).includes(role)) {
        problems.push(`${id}: x-role '${role}' is not one of ${ROLES.join(', ')}`);
      }
      if ((rawPermission !== null || role !== null) && !secured) {
        problems.push(`${id}: x-permission/x-role on a call without security cannot be checked`);
      }
      if (secured && rawPermission === null && role === null) {
        // every secured call says who may call it, so that a call is closed before it is built
        problems.push(`${id}: a secured call must declare x-permission (a name, or 'none' for every user) or x-role`);
      }
      const apiScope = op['x-api-scope'] ?? null;
      if (apiScope !== null && (!secured || !doc.components?.schemas?.ApiScope?.enum?.includes(apiScope)))
        problems.push(`${id}: x-api-scope '${apiScope}' must be an ApiScope, on a secured call`);
      const transaction = op['x-transaction'] === true;
      const idempotent = op['x-idempotent'] === true;
      const headerNames = all.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
      if (idempotent && !planned) {
        if (!transaction) problems.push(`${id}: x-idempotent needs x-transaction (the reply is kept in the same one)`);
        if (!secured) problems.push(`${id}: x-idempotent keys are per user, so the call needs security`);
        if (!all.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key' && p.required)) {
          problems.push(`${id}: x-idempotent needs the required Idempotency-Key header parameter`);
        }
      }
      const cacheMs = op['x-cache-ms'] ?? 0;
      if (cacheMs !== 0) {
        if (!Number.isInteger(cacheMs) || cacheMs < 0 || cacheMs > 10_000) {
          problems.push(`${id}: x-cache-ms must be whole milliseconds from 0 to 10000`);
        }
        // a kept answer is per caller and must be a read: nothing a repeated call would have changed
        if (method !== 'get' || transaction || !secured) problems.push(`${id}: x-cache-ms is for secured GET reads`);
      }
      const responses = new Set(Object.keys(op.responses));
      const quotas = new Set<QuotaName>();
      for (const name of op['x-quota'] ?? []) {
        if (!Object.hasOwn(QUOTAS, name))
          problems.push(`${id}: x-quota '${name}' is not a cap of server/quotas/limits.ts`);
        else if (!responses.has(String(quotaStatus(QUOTAS[name as QuotaName]))))
          problems.push(`${id}: x-quota '${name}' answers ${quotaStatus(QUOTAS[name as QuotaName])}; declare it`);
        else quotas.add(name as QuotaName);
      }
      // every file kept costs disk: an upload names the daily cap of bytes, which the router enforces
      if (media === 'multipart/form-data' && secured && !planned && !quotas.has('upload-bytes'))
        problems.push(`${id}: an upload must name x-quota 'upload-bytes' (and declare its 429)`);
      const needed = routerStatuses({
        secured,
        bodyMediaType: media,
        planned,
        params: all.some((p) => p.in !== 'cookie'),
      });
      const missing = [...needed].filter((s) => !responses.has(s));
      if (missing.length > 0) problems.push(`${id}: the router may answer ${missing.join(', ')}; declare them`);

      operations.push({
        operationId: id,
        method,
        path,
        routePath: path.replace(/\{([^}]+)\}/g, ':$1'),
        secured,
        permission: rawPermission === null || rawPermission === 'none' ? null : (rawPermission as PermissionName),
        role,
        kycExempt: op['x-kyc-exempt'] === true,
        apiScope: apiScope as ApiScope | null,
        transaction,
        idempotent,
        cacheMs,
        quotas,
        planned,
        bodyMediaType: media,
        bodyRequired: op.requestBody?.required ?? false,
        upload,
        arrayQuery: new Set(
          all.filter((p) => p.in === 'query' && [p.schema?.type].flat().includes('array')).map((p) => p.name),
        ),
        headers: headerNames,
        responses,
        validateBody: (body) => {
          const v = bodyValidator();
          return v && !v(body) ? toFieldErrors('/body', v.errors) : [];
        },
        validateFields: (values) => {
          // the text of a number field must be written in decimals: Ajv's coercion would take '0x10', '1e3' or
          // ' 12 ' for 16, 1000 and 12 (JavaScript's reading), which no form sends for an amount
          const props = ((mediaObject?.schema ?? {}) as { properties?: Record<string, Record<string, unknown>> })
            .properties;
          const written = upload ? decimalProblems(Object.entries(props ?? {}), doc, values, '/body') : [];
          const v = fieldsValidator();
          return withDecimal(v && !v(values) ? toFieldErrors('/body', v.errors) : [], written);
        },
        validateQuery: (query) => {
          const v = queryValidator();
          const written = decimalProblems(queryDeclared, doc, query, '/query');
          return withDecimal(v && !v(query) ? toFieldErrors('/query', v.errors) : [], written);
        },
        validatePath: (p) => {
          const v = pathValidator();
          const written = decimalProblems(pathDeclared, doc, p, '/path');
          return withDecimal(v && !v(p) ? toFieldErrors('/path', v.errors) : [], written);
        },
        validateHeaders: (h) => {
          const v = headerValidator();
          return v && !v(h) ? toFieldErrors('/header', v.errors) : [];
        },
        validateResponse: (status, body) => {
          const validator = responseValidators.get(String(status));
          if (!validator) return [`${id} does not declare the status ${status}`];
          const v = validator();
          if (!v || v(body)) return [];
          return (v.errors ?? []).map((e) => `${status} ${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
        },
      });
    }
  }
  if (problems.length > 0)
    throw new Error(`The contract (${file}) breaks the router's rules:\n- ${problems.join('\n- ')}`);
  const byKey = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  return {
    operations,
    find: (method, path) => byKey.get(`${method} ${path}`),
    byId: (operationId) => byId.get(operationId),
  };
}
