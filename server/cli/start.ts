import cluster from 'node:cluster';
import { StartupError } from '../config';
import { serveAndAnnounce } from '../main';
import { runPrimary, serveWorker } from '../ops/cluster';
import { readOpsConfig } from '../ops/config';

/**
 * The production server. `npm start` (scripts/start.mjs) runs this file bundled into dist-server/start.mjs
 * by scripts/build-server.mjs, so no TypeScript is compiled at run time; `npm run dev` and the tests run
 * the sources under tsx. `WORKERS=N` (PostgreSQL) makes this process the primary of N workers that run it
 * again (server/ops/cluster.ts).
 */
try {
  if (cluster.isWorker) await serveWorker();
  else {
    const { workers } = readOpsConfig();
    if (workers > 1) await runPrimary(workers);
    else await serveAndAnnounce();
  }
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  console.error(`SB Portal did not start: ${error.message}`);
  process.exit(1);
}
