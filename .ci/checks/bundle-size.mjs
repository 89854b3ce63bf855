// Fails the build when the JavaScript that /login loads (the entry chunk and everything it imports
// statically) is over budget gzipped. Routes loaded on demand do not count.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 110;
const dir = process.argv[2] ?? 'dist';
const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));
const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
if (!entry) throw new Error(`no entry chunk in ${dir}/.vite/manifest.json`);

const seen = new Set();
const visit = (chunk) => {
  if (seen.has(chunk.file)) return;
  seen.add(chunk.file);
  for (const key of chunk.imports ?? []) visit(manifest[key]);
};
visit(entry);

let total = 0;
for (const file of seen) {
  const size = gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;
  total += size;
  console.info(`  ${file.padEnd(40)} ${(size / 1024).toFixed(1)} KB gzipped`);
}
const kb = total / 1024;
console.info(`/login loads ${kb.toFixed(1)} KB of JavaScript gzipped (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error(`The /login bundle is ${(kb - BUDGET_KB).toFixed(1)} KB over budget: load more of it on demand.`);
  process.exit(1);
}
