import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import type { components } from '../../openapi/schema';

export const CONTRACT_FILE = fileURLToPath(new URL('../../openapi/portal.yaml', import.meta.url));
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type PermissionName = components['schemas']['PermissionName'];

export interface FieldError {
  path: string;
  message: string;
}

/** One operation of the contract, with its validators compiled from the contract's own schemas. */
export interface Operation {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** The same path in Hono's syntax: `/ticket/delete/:id`. */
  routePath: string;
  secured: boolean;
  /** The permission (`x-permission`) the caller needs, checked by the router after the token; null for none. */
  permission: PermissionName | null;
  /** `x-kyc-exempt`: a seller whose KYC is not approved may call it (the calls the KYC page needs). */
  kycExempt: boolean;
  planned: boolean;
  bodyMediaType: 'application/json' | 'multipart/form-data' | null;
  bodyRequired: boolean;
  responses: ReadonlySet<string>;
  validateBody(body: unknown): FieldError[];
  validateQuery(query: Record<string, unknown>): FieldError[];
  validatePath(params: Record<string, unknown>): FieldError[];
}

export interface Contract {
  operations: readonly Operation[];
  find(method: string, path: string): Operation | undefined;
}

interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: object;
}
interface OperationObject {
  operationId: string;
  security?: unknown[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: object }> };
  responses: Record<string, unknown>;
  'x-status'?: string;
  'x-permission'?: string;
  'x-kyc-exempt'?: boolean;
}

const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** A parameter's schema may `$ref` the contract's components; compiled on its own, the ref must name the file. */
const inDocument = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"portal#/')) as object;

function toFieldErrors(prefix: string, errors: ErrorObject[] | null | undefined): FieldError[] {
  return (errors ?? []).map((e) => {
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
    if (e.keyword === 'enum')
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    return { path, message };
  });
}

/**
 * Reads openapi/portal.yaml and compiles, for every operation, validators for its body, query and path
 * parameters. The contract is the only description of the shapes: nothing here repeats them.
 */
export function loadContract(file = CONTRACT_FILE): Contract {
  const doc = parse(readFileSync(file, 'utf8')) as {
    security?: unknown[];
    paths: Record<string, Record<string, unknown>>;
    components?: { schemas?: { PermissionName?: { enum?: string[] } } };
  };
  const permissionNames = new Set(doc.components?.schemas?.PermissionName?.enum ?? []);
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
  const bodies = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  const params = new Ajv2020({ strict: false, allErrors: true, coerceTypes: 'array', useDefaults: true });
  for (const ajv of [bodies, params]) {
    addFormats(ajv);
    ajv.addSchema(doc, 'portal');
  }

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters as ParameterObject[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const all = [...shared, ...(op.parameters ?? [])];
      const compileParams = (where: 'query' | 'path'): ValidateFunction | null => {
        const list = all.filter((p) => p.in === where);
        if (list.length === 0) return null;
        return params.compile({
          type: 'object',
          properties: Object.fromEntries(list.map((p) => [p.name, inDocument(p.schema ?? {})])),
          required: list.filter((p) => p.required || where === 'path').map((p) => p.name),
        });
      };
      const media = op.requestBody ? (Object.keys(op.requestBody.content)[0] as Operation['bodyMediaType']) : null;
      const bodyPointer = media
        ? `portal#/paths/${pointerEscape(path)}/${method}/requestBody/content/${pointerEscape(media)}/schema`
        : null;
      const bodyValidator = bodyPointer && media === 'application/json' ? bodies.compile({ $ref: bodyPointer }) : null;
      const queryValidator = compileParams('query');
      const pathValidator = compileParams('path');
      const security = op.security ?? doc.security ?? [];
      const permission = op['x-permission'] ?? null;
      if (permission !== null && (!permissionNames.has(permission) || security.length === 0)) {
        // a typo here would lock everyone out (or, without security, nobody could be checked): fail at start
        throw new Error(`${op.operationId}: x-permission '${permission}' is not a PermissionName of a secured call`);
      }
      operations.push({
        operationId: op.operationId,
        method,
        path,
        routePath: path.replace(/\{([^}]+)\}/g, ':$1'),
        secured: security.length > 0,
        permission: permission as PermissionName | null,
        kycExempt: op['x-kyc-exempt'] === true,
        planned: op['x-status'] === 'planned',
        bodyMediaType: media,
        bodyRequired: op.requestBody?.required ?? false,
        responses: new Set(Object.keys(op.responses)),
        validateBody: (body) =>
          bodyValidator && !bodyValidator(body) ? toFieldErrors('/body', bodyValidator.errors) : [],
        validateQuery: (query) =>
          queryValidator && !queryValidator(query) ? toFieldErrors('/query', queryValidator.errors) : [],
        validatePath: (p) => (pathValidator && !pathValidator(p) ? toFieldErrors('/path', pathValidator.errors) : []),
      });
    }
  }
  return {
    operations,
    find: (method, path) => operations.find((o) => o.method === method && o.path === path),
  };
}
