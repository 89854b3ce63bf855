import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pandacss from '@pandacss/dev/postcss';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { pandaStaticCss } from './scripts/panda-static-css';
import { pruneUnusedTokens } from './scripts/prune-unused-tokens';
import { sellerApiReferencePlugin } from './scripts/seller-api-reference';
import { sessionPreload } from './scripts/session-preload';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The day of the commit checked out (YYYY-MM-DD), or today outside a git checkout. */
function commitDay(): string {
  try {
    return execFileSync('git', ['log', '-1', '--format=%cs'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}
const srcFiles = readdirSync(here('./src'), { recursive: true, encoding: 'utf8' });
/** The style sheets beside index.css (chunks' own): the tokens they read stay in index.css */
const chunkSheets = srcFiles
  .filter((f) => f.endsWith('.css') && f !== 'index.css' && !f.startsWith('styled-system'))
  .map((f) => here(`./src/${f}`));

/**
 * The browser-side test files that change what every later file in the same worker would see: a module mock
 * (`vi.mock` is hoisted before the imports of its own file, but a module that another file already imported stays
 * real), a stubbed global or env, fake timers. They run isolated, each in a fresh jsdom and module graph; the
 * others share one per worker (jsdom's set-up was 38 of the 79 seconds of the 33 files).
 */
const domTests = srcFiles.filter((f) => /\.test\.tsx?$/.test(f)).map((f) => `src/${f.split('\\').join('/')}`);
const changesTheWorker = (file: string) =>
  /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/.test(readFileSync(here(`./${file}`), 'utf8'));
const isolatedDomTests = domTests.filter(changesTheWorker);

/** The chunks e2e/resilience.spec.ts and e2e/reports.spec.ts fail, hold or look for by their file's name. */
const NAMED_CHUNKS = new Set([
  'dashboard-page',
  'notifications-panel',
  'notifications-page',
  'shell-layout',
  'gated-routes',
  'toasts',
  'bar-chart-draw',
]);

export default defineConfig(({ mode }) => ({
  // pandaStaticCss: the static css() calls' class names computed at build time (scripts/panda-static-css.ts)
  // sessionPreload: the chunks a page opened on /dashboard with a session loads next (src/app/pages.ts preloadRoute),
  // for the server to name in its HTML (scripts/session-preload.ts, server/http/static.ts)
  plugins: [
    react(),
    sellerApiReferencePlugin(here('./openapi/portal.yaml')),
    pandaStaticCss({ runtime: here('./src/styled-system/css/index.mjs') }),
    sessionPreload({
      pages: {
        '/dashboard': [
          here('./src/app/shell/shell-layout.tsx'),
          here('./src/app/gated-routes.tsx'),
          here('./src/features/dashboard/dashboard-page.tsx'),
        ],
      },
    }),
  ],
  // Panda's PostCSS plugin types (and ours) come from another postcss copy than Vite's
  css: {
    postcss: {
      plugins: [pandacss() as never, pruneUnusedTokens({ keep: [/^--radii-/], readers: chunkSheets }) as never],
    },
  },
  resolve: { alias: { 'styled-system': here('./src/styled-system') } },
  define: {
    // the e2e build keeps the development-only pages (the UI gallery) that production drops
    __DEV_PAGES__: JSON.stringify(mode !== 'production'),
    // the accessibility statement's date: the day of the commit built, whose every page CI scans before it lands
    __LAST_CHECKED__: JSON.stringify(commitDay()),
  },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? 8081}` },
  },
  build: {
    target: 'es2022',
    // no polyfill for <link rel="modulepreload">: every browser of es2022 but Safari 16 has it (there the chunks
    // load when imported, as without a preload), and its check ran in every page's first task (2 ms here, 8 at
    // a phone's speed)
    modulePreload: { polyfill: false },
    // no manifest: nothing reads it (the /login budget is measured in the browser), and a build folder
    // holds only what may be served
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // a chunk's file is named by its hash alone: the entry lists the chunks each page preloads by file name,
        // 76 of them, and their module names ('assets/my-listings-page-GVjsGVx8.js') were 740 bytes of what /login
        // loads, gzipped (112,653 to 111,913 in the e2e build). The chunks the browser tests fail, hold or look
        // for by name keep it (NAMED_CHUNKS). To see which modules another holds: `npx vite build --sourcemap
        // --outDir /tmp/dist-maps`, then its .map file's `sources`
        chunkFileNames: (chunk) => (NAMED_CHUNKS.has(chunk.name) ? 'assets/[name]-[hash].js' : 'assets/[hash].js'),
        codeSplitting: {
          groups: [
            {
              // the small modules the shell and the dashboard (the page after the login) share with other pages:
              // one chunk instead of thirteen of 0.4-3 KB. A page opened with a session asked for 16 chunks at
              // once, and over HTTP/1.1's six connections a phone waited a round trip for each six of them (the
              // profile calls queued behind). Only modules no /login code imports: none moves into what /login loads
              name: 'shell-common',
              test: /[\\/]src[\\/](ui[\\/](use-escape-key|use-focus-trap|bar-chart|skeleton|dropdown|tone-badge|icons)|app[\\/](route-access|view-actor|shell[\\/](shell-actors|icons))|lib[\\/](feed-format|format-date|money))\.tsx?$|[\\/]machines[\\/](support-info|side-menu|menu-counts)\.machine\.ts$/,
              // only these modules: their dependencies stay where automatic chunking puts them (React in the entry)
              includeDependenciesRecursively: false,
            },
            {
              // what the login form runs on beside React (XState, the form machines, valibot, the API client): one
              // chunk /login loads with its entry. Left to automatic chunking, the e2e build (whose flows pages import
              // every machine) split it in two, half a kilobyte more of /login's budget than the production build
              name: 'login-common',
              test: /[\\/]node_modules[\\/](xstate|@xstate[\\/]react|valibot|openapi-fetch|use-sync-external-store|use-isomorphic-layout-effect)[\\/]|[\\/]machines[\\/](form\.machine|login-form\.machine|lazy-machine|notify)\.ts$|[\\/]openapi[\\/](client|auth-cookies|form-messages|valibot[\\/]auth)\.ts$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  test: {
    // three workers on two cores: a server test file waits on timers and sockets (one waits 15 s for a socket's
    // header timeout), so two workers left a third of the CPU idle; three took the run from 141 to 111 s
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'machines/**/*.test.ts',
            'server/**/*.test.ts',
            'openapi/**/*.test.ts',
            'scripts/**/*.test.ts',
            '.ci/**/*.test.mjs',
          ],
          // the seeded database every server test file copies (built once: seeding hashes passwords)
          globalSetup: ['server/testing/global-setup.ts'],
          // cheap password hashes in the server tests (server/auth/passwords.ts says why and where it stops)
          env: { SB_TEST_FAST_HASH: '1' },
          testTimeout: 30_000,
          // one module graph per worker, not one per file: every server test file imported the server, the contract
          // and its validators again (import was 600 of a loaded CI run's 2,270 s; 28 s of 238 s without). Each file
          // still builds its own server on its own database (freshServer), and no node test mocks a module.
          isolate: false,
          // a fresh server per file hashes the demo passwords at OWASP cost: allow for a busy machine
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: domTests.filter((f) => !isolatedDomTests.includes(f)),
          setupFiles: ['src/test-setup.ts'],
          // one jsdom and module graph per worker (src/test-setup.ts cleans the DOM and the cookies after each test)
          isolate: false,
          // jsdom renders slowly on a busy 2-core machine (a drawer test took 5.7 s beside the other workers)
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom-isolated',
          environment: 'jsdom',
          include: isolatedDomTests,
          setupFiles: ['src/test-setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
}));
