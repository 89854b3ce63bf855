import { serveAndAnnounce } from '../main';

/**
 * The production server. `npm start` (scripts/start.mjs) runs this file bundled into dist-server/start.mjs
 * by scripts/build-server.mjs, so no TypeScript is compiled at run time; `npm run dev` and the tests run
 * the sources under tsx.
 */
await serveAndAnnounce();
