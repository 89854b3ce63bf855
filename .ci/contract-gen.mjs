// Generates what the code derives from the contract, openapi/portal.yaml:
//   openapi/schema.ts   the types of every path and schema, and the values of every enum
//                       (openapi-typescript --enum-values: `orderStatusValues`, `currencyCodeValues`...)
//   openapi/valibot.ts  a valibot schema per request body, for forms (.ci/contract-valibot.mjs): it re-exports
//                       openapi/valibot/<tag>.ts, one module per contract tag
//
//   node .ci/contract-gen.mjs            writes them into openapi/
//   generateContract(dir)                writes them into `dir` (the drift check compares the two)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { valibotModules } from './contract-valibot.mjs';

export const CONTRACT = 'openapi/portal.yaml';
/** The generated files under `dir`, by path: the drift check compares them (and finds one left over). */
export function generatedFiles(dir = 'openapi') {
  let tagModules = [];
  try {
    tagModules = readdirSync(join(dir, 'valibot')).map((name) => `valibot/${name}`);
  } catch {
    // not generated yet
  }
  return ['schema.ts', 'valibot.ts', ...tagModules.sort()];
}

/** Writes the generated files into `dir` (a tag module the contract no longer has is removed). */
export function generateContract(dir = 'openapi', contract = CONTRACT) {
  // --enum-values: enums become runtime arrays too, so no code copies a status or currency list by hand
  execFileSync('node_modules/.bin/openapi-typescript', [contract, '--enum-values', '-o', join(dir, 'schema.ts')], {
    stdio: 'pipe',
  });
  rmSync(join(dir, 'valibot'), { recursive: true, force: true });
  mkdirSync(join(dir, 'valibot'));
  for (const [file, text] of valibotModules(parse(readFileSync(contract, 'utf8'))))
    writeFileSync(join(dir, file), text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  generateContract();
  console.info(
    `generated ${generatedFiles()
      .map((f) => `openapi/${f}`)
      .join(', ')} from ${CONTRACT}`,
  );
}
