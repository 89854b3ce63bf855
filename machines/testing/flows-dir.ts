import { join, resolve } from 'node:path';

/**
 * Where the flows' files go: public/flows (built by `npm run flows:export`, which the builds run; not in git), so
 * that the app serves them at /flows. `FLOWS_DIR` sends them elsewhere (the export's check writes twice into
 * temporary folders).
 */
export const FLOWS_DIR = process.env.FLOWS_DIR ?? join(resolve(import.meta.dirname, '../..'), 'public', 'flows');
