// Bundles the server (TypeScript) into one ES module, dist-server/start.mjs, so that production runs plain
// JavaScript instead of compiling TypeScript at every start. node_modules stay external: they are resolved
// at run time from the installed packages, as under tsx.
//
//   node scripts/build-server.mjs            builds dist-server/start.mjs from server/cli/start.ts
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = resolve(ROOT, 'server/cli/start.ts');
export const SERVER_OUTFILE = resolve(ROOT, 'dist-server/start.mjs');
/** The sources the bundle was made from (relative to ROOT), for scripts/start.mjs to tell when it is stale. */
export const SERVER_INPUTS = resolve(ROOT, 'dist-server/inputs.json');

/**
 * In a bundle every module shares the bundle's `import.meta.url`. A source file that finds a file next to
 * itself (the contract finds openapi/portal.yaml from server/contract/) gets instead the URL its source
 * file has relative to the bundle, so the bundle reads the same files as the sources do, wherever the
 * checkout lives.
 */
const sourceImportMetaUrl = (outfile) => ({
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(dirname(outfile), args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
});

/**
 * Bundles `entry` into `outfile` (ESM, Node 20, packages external, with a source map for stack traces) and
 * writes the list of its source files to `inputs` when given.
 */
export async function bundleServer({ entry = SERVER_ENTRY, outfile = SERVER_OUTFILE, inputs = null } = {}) {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    absWorkingDir: ROOT,
    metafile: true,
    plugins: [sourceImportMetaUrl(outfile)],
  });
  if (inputs) writeFileSync(inputs, `${JSON.stringify(Object.keys(result.metafile.inputs).sort(), null, 2)}\n`);
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const outfile = await bundleServer({ inputs: SERVER_INPUTS });
  console.info(`server bundled into ${relative(ROOT, outfile)} in ${Math.round(performance.now() - started)} ms`);
}
