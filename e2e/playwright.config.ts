import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 4178);

/**
 * The built app (dist-e2e) and the real server on a fresh temporary database, driven in Debian's Chromium.
 * No browser is downloaded: CHROMIUM_PATH (default /usr/bin/chromium) must exist.
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
    trace: 'retain-on-failure',
    navigationTimeout: 30_000,
    actionTimeout: 15_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
