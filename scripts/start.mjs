// `npm start`: builds what is missing or older than its sources (the web app into dist/ with the flows' export,
// the server into dist-server/), then runs the built server: plain JavaScript, no TypeScript compiled at run time.
import { execFileSync } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, SERVER_INPUTS, SERVER_OUTFILE } from './build-server.mjs';

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Number.POSITIVE_INFINITY);

/** The newest modification under `path` (a file or a folder), skipping generated code and dotfiles. */
function newest(path) {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'styled-system' || entry.name.startsWith('.')) continue;
    if (path === resolve(ROOT, 'public') && entry.name === 'flows') continue;
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

const web = resolve(ROOT, 'dist/index.html');
// public/flows is built (the flows' export, by the build), not a source
const webSources = ['src', 'machines', 'openapi', 'public', 'index.html', 'vite.config.ts', 'panda.config.ts'];
const webStale =
  !existsSync(web) ||
  !existsSync(resolve(ROOT, 'dist/flows/index.json')) ||
  Math.max(...webSources.map((p) => newest(resolve(ROOT, p)))) > mtime(web);

/** The files the last server bundle was made from (esbuild's own list), and the build script itself. */
function serverStale() {
  if (!existsSync(SERVER_OUTFILE) || !existsSync(SERVER_INPUTS)) return true;
  const inputs = JSON.parse(readFileSync(SERVER_INPUTS, 'utf8'));
  const built = mtime(SERVER_OUTFILE);
  return [...inputs, 'scripts/build-server.mjs'].some((p) => {
    const path = resolve(ROOT, p);
    // a source that is gone (moved, deleted) means the bundle is out of date too
    return !existsSync(path) || statSync(path).mtimeMs > built;
  });
}

/**
 * Runs a build step. Its output (Vite's chunk list, the budget's table) goes to `build.log`, and only a failure
 * prints it; `BUILD_VERBOSE=1 npm start` shows it as it comes.
 */
function build(what, command, args) {
  const started = Date.now();
  const verbose = process.env.BUILD_VERBOSE === '1';
  console.info(`Building ${what} (first start, or its sources changed)...`);
  try {
    const output = execFileSync(command, args, {
      cwd: ROOT,
      stdio: verbose ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (!verbose) writeFileSync(BUILD_LOG, output ?? '');
  } catch (error) {
    if (!verbose) {
      writeFileSync(BUILD_LOG, `${error.stdout ?? ''}${error.stderr ?? ''}`);
      console.error(`${error.stdout ?? ''}${error.stderr ?? ''}`.split('\n').slice(-40).join('\n'));
    }
    console.error(`The build failed; its whole output is in build.log.`);
    process.exit(1);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.info(`Built in ${seconds} s${verbose ? '' : ` (its output: build.log, or BUILD_VERBOSE=1 npm start)`}.`);
}

const BUILD_LOG = resolve(ROOT, 'build.log');

// a worker of WORKERS=N runs this file again: its primary built whatever was missing
if (!cluster.isPrimary) {
  // nothing to build
} else if (webStale) {
  build('the web app and the server', 'npm', ['run', '--silent', 'build']);
} else if (serverStale()) {
  build('the server', process.execPath, [resolve(ROOT, 'scripts/build-server.mjs')]);
}

// stack traces in the logs point into the TypeScript sources, through the bundle's source map
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_OUTFILE).href);
