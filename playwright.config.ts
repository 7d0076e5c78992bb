import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Tests tagged `@shared-state` change or count what every test shares (the transaction limits, the admin
 * queues' pending counts), so they run alone, one after another, once the others have finished.
 */
const sharedState = /@shared-state/;

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`: the same Blink and V8 without the desktop
 * browser around them, what Playwright itself runs headless) when it is installed, else the full browser.
 * On two cores the shell ran the wallet and buy specs on 82 CPU-s of Chromium where the full browser in
 * headless mode took 129.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');

/**
 * Browser tests run in the system's Chromium (Debian packages), never a downloaded browser. Three workers,
 * each signing in its own admin (tests/browser/support/worker-admin.ts); a test makes its own people. A
 * test mostly waits (on the app's timers and live updates, the stack's answers): two workers kept about
 * one of the two cores busy (0.36 CPU-s per second of test), so a third runs beside them.
 */
export default defineConfig({
  testDir: 'tests/browser',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 3,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // The workers share the machine's two cores with the stack they test: a page takes longer to show.
  expect: { timeout: 10_000 },
  globalSetup: './tests/browser/global-setup.ts',
  use: {
    baseURL: process.env.APP_URL ?? 'http://localhost:5173',
    // A failed test keeps its trace's actions, console and network, a screenshot and the page's accessibility
    // snapshot at the failure, but no screencast nor DOM snapshot per action: recording those for every test
    // cost about a fifth and a tenth of the browser suite's CPU on two cores.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'] },
      grepInvert: sharedState,
      // A teardown project runs after this one whatever its outcome (a dependency would be skipped on a failure).
      teardown: 'shared-state',
    },
    { name: 'shared-state', use: { ...devices['Desktop Chrome'] }, grep: sharedState, workers: 1 },
  ],
});
