import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import type { Plugin } from 'vite';

/**
 * The seller API's reference, from openapi/portal.yaml at build time: every operation an API token may call
 * (`x-api-scope`), with its summary, description, parameters and an example curl. The app's reference page
 * imports it as `virtual:seller-api-reference` (a few kilobytes in that page's chunk; no YAML in the browser).
 */
export interface ReferenceOperation {
  operationId: string;
  method: string;
  path: string;
  scope: string;
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean }[];
  idempotent: boolean;
  example: string;
}

type Raw = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function sellerApiReference(doc: { paths: Record<string, Record<string, Raw>> }): ReferenceOperation[] {
  const out: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op['x-api-scope'] !== 'string') continue;
      const parameters = ((op.parameters as Raw[] | undefined) ?? [])
        .filter((p) => typeof p.name === 'string')
        .map((p) => ({ name: String(p.name), in: String(p.in), required: p.required === true }));
      const idempotent = op['x-idempotent'] === true;
      const body = op.requestBody ? " -H 'Content-Type: application/json' -d '{...}'" : '';
      const key = idempotent ? " -H 'Idempotency-Key: <a new key per action>'" : '';
      out.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        path,
        scope: op['x-api-scope'],
        summary: String(op.summary ?? ''),
        description: String(op.description ?? ''),
        parameters,
        idempotent,
        example: `curl -X ${method.toUpperCase()} 'https://<portal>/api${path}' -H 'Authorization: Bearer sbk_...'${key}${body}`,
      });
    }
  }
  return out.sort((a, b) => a.scope.localeCompare(b.scope) || a.path.localeCompare(b.path));
}

const ID = 'virtual:seller-api-reference';

export function sellerApiReferencePlugin(contractFile: string): Plugin {
  return {
    name: 'seller-api-reference',
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load(id) {
      if (id !== `\0${ID}`) return undefined;
      this.addWatchFile(contractFile);
      const doc = load(readFileSync(contractFile, 'utf8')) as Parameters<typeof sellerApiReference>[0];
      return `export default ${JSON.stringify(sellerApiReference(doc))};`;
    },
  };
}
