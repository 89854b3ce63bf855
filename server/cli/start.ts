import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** `npm start`: build the SPA when it is missing or older than its sources, then serve everything. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'styled-system' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const built = 'dist/index.html';
const sourcesChanged =
  !existsSync(built) ||
  Math.max(newest('src'), newest('machines'), newest('openapi'), newest('public'), statSync('index.html').mtimeMs) >
    statSync(built).mtimeMs;
if (sourcesChanged) {
  console.info('Building the web app (first start, or its sources changed)...');
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
}
const { serveAndAnnounce } = await import('../main');
await serveAndAnnounce();
