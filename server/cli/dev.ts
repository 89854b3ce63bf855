import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'vite';
import { startServer } from '../main';

// the flow viewer (/flows) reads the flows' export from public/flows, which is built, not in git: exported again
// when it is missing or a machine changed since
const machinesDir = resolve(import.meta.dirname, '../../machines');
const flowsIndex = resolve(import.meta.dirname, '../../public/flows/index.json');
const newestUnder = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newestUnder(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
if (!existsSync(flowsIndex) || newestUnder(machinesDir) > statSync(flowsIndex).mtimeMs) {
  console.info('Exporting the flows for /flows (public/flows is missing or older than machines/)...');
  spawnSync('npm', ['run', '--silent', 'flows:export'], { stdio: 'inherit' });
}

/** `npm run dev`: the API on API_PORT (default 8081) and Vite with hot reload on PORT (default 8080), proxying /api. */
const apiPort = Number(process.env.API_PORT ?? 8081);
process.env.API_PORT = String(apiPort);
const api = await startServer({ port: apiPort, host: '127.0.0.1', staticDir: '', validateResponses: true });
const vite = await createServer({ server: { port: Number(process.env.PORT ?? 8080), host: true } });
await vite.listen();
vite.printUrls();
console.info(`API on http://127.0.0.1:${api.port}/api (demo password: Demo1234!)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([vite.close(), api.close()]).then(() => process.exit(0));
  });
}
