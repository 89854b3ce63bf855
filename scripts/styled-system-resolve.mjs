// `node --import ./scripts/styled-system-resolve.mjs`: resolves `styled-system/<part>` (Panda's generated code in
// src/styled-system, an alias in vite.config.ts and a path in tsconfig.json) to its index.mjs, for a script that
// renders the app's components outside Vite (scripts/prerender-pages.tsx).
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
const root = ${JSON.stringify(new URL('../src/', import.meta.url).href)};
export async function resolve(specifier, context, next) {
  const part = /^styled-system\\/([a-z]+)$/.exec(specifier);
  return next(part ? root + 'styled-system/' + part[1] + '/index.mjs' : specifier, context);
}`)}`,
);
