// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible file of a built
// folder, so that the server sends them by Accept-Encoding without compressing anything per request. A copy
// is kept only when it is smaller than the file.
//
//   node scripts/precompress.mjs dist
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest', '.xml', '.map']);
/** Below this, the compressed copy saves less than a packet: not worth a file. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // never served
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

export async function precompress(dir) {
  const done = [];
  const work = [];
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.has(extname(path).toLowerCase())) continue;
    work.push(
      (async () => {
        const body = await readFile(path);
        const variants = [
          ['.br', () => brotli(body, { params: brotliParams(body.length) })],
          ['.gz', () => gz(body, { level: 9 })],
        ];
        const sizes = { file: relative(dir, path), raw: body.length };
        for (const [suffix, compress] of variants) {
          const target = path + suffix;
          const packed = body.length >= MIN_BYTES ? await compress() : null;
          if (packed && packed.length < body.length) {
            await writeFile(target, packed);
            sizes[suffix.slice(1)] = packed.length;
          } else {
            // a copy left by an earlier run of a bigger file would be served in its place
            await unlink(target).catch(() => {});
          }
        }
        done.push(sizes);
      })(),
    );
  }
  await Promise.all(work);
  return done.sort((a, b) => a.file.localeCompare(b.file));
}

const brotliParams = (size) => ({
  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  [constants.BROTLI_PARAM_SIZE_HINT]: size,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir || !(await stat(dir).catch(() => null))?.isDirectory()) {
    console.error('usage: node scripts/precompress.mjs <built folder>');
    process.exit(2);
  }
  const started = performance.now();
  const sizes = await precompress(dir);
  const packed = sizes.filter((s) => s.br || s.gz);
  const sum = (k) => packed.reduce((n, s) => n + (s[k] ?? s.raw), 0);
  console.info(
    `precompressed ${packed.length} of ${sizes.length} files in ${dir} in ${Math.round(performance.now() - started)} ms: ` +
      `${(sum('raw') / 1024).toFixed(1)} KB -> gzip ${(sum('gz') / 1024).toFixed(1)} KB, br ${(sum('br') / 1024).toFixed(1)} KB`,
  );
}
