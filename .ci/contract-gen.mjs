// Generates what the code derives from the contract, openapi/portal.yaml:
//   openapi/schema.ts   the types of every path and schema, and the values of every enum
//                       (openapi-typescript --enum-values: `orderStatusValues`, `currencyCodeValues`...)
//   openapi/valibot.ts  a valibot schema per request body, for forms (.ci/contract-valibot.mjs)
//
//   node .ci/contract-gen.mjs            writes them into openapi/
//   generateContract(dir)                writes them into `dir` (the drift check compares the two)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { valibotModule } from './contract-valibot.mjs';

export const CONTRACT = 'openapi/portal.yaml';
/** The generated files, by name; each is compared by the drift check. */
export const GENERATED = ['schema.ts', 'valibot.ts'];

export function generateContract(dir = 'openapi', contract = CONTRACT) {
  // --enum-values: enums become runtime arrays too, so no code copies a status or currency list by hand
  execFileSync('node_modules/.bin/openapi-typescript', [contract, '--enum-values', '-o', join(dir, 'schema.ts')], {
    stdio: 'pipe',
  });
  writeFileSync(join(dir, 'valibot.ts'), valibotModule(parse(readFileSync(contract, 'utf8'))));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  generateContract();
  console.info(`generated ${GENERATED.map((f) => `openapi/${f}`).join(', ')} from ${CONTRACT}`);
}
