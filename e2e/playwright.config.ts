import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 4178);

/**
 * Debian's headless shell (package chromium-headless-shell, the same Chromium build without the desktop browser
 * around it) when it is installed, else Debian's chromium. On this 2-core machine the shell took the renderer's
 * and the browser process's CPU from 106 s to 38 s for the same 30 tests, and their run from 2.0 to 1.2 minutes.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * The built app (dist-e2e) and the real server on a fresh temporary database, driven in Debian's Chromium.
 * No browser is downloaded: CHROMIUM_PATH, else Debian's chromium-headless-shell, else /usr/bin/chromium.
 *
 * Made for a busy 2-core machine: the `setup` project logs in once per account (e2e/auth.setup.ts) and the
 * specs start from its stored session instead of the login form; no test waits a fixed time, and every
 * wait is a web-first assertion with room for a loaded machine (15 s).
 */
export default defineConfig({
  testDir: '.',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]],
  outputDir: '../test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    // a failed test keeps its trace: the actions, the DOM before and after each, the network and the console. No
    // screencast: its frames cost as much CPU as the tests (the same 30 tests ran 2.2 minutes with it, 1.2 without)
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    screenshot: 'only-on-failure',
    navigationTimeout: 30_000,
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'setup', testMatch: /auth\.setup\.ts$/ },
    { name: 'chromium', testMatch: /\.spec\.ts$/, dependencies: ['setup'] },
  ],
  webServer: {
    command: 'node --import tsx e2e/server.ts',
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    // seeding hashes the demo passwords at OWASP cost before the server listens
    timeout: 180_000,
    env: { E2E_PORT: String(PORT), LOG_LEVEL: 'warn' },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
