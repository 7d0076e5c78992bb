/**
 * Regenerates the landing page's dashboard preview (`public/dashboard-preview.png`) from a real
 * screenshot of the wallet page: a throwaway seeded stack, the built app, the seeded user signed in.
 *
 *   npx tsx scripts/dashboard-preview.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildApp, serveApp } from '../devstack/app-server';
import { seededAccounts } from '../devstack/config';
import { startStack } from '../devstack/stack';

const outputFile = new URL('../public/dashboard-preview.png', import.meta.url).pathname;
// A desktop window drawn at 3/4 scale: 1200 × 800 pixels, the size the landing page reserves for the image.
const viewport = { width: 1600, height: 1067 };
const deviceScaleFactor = 0.75;

async function main() {
  const stack = await startStack();
  const buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-preview-'));
  try {
    await buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey });
    const app = await serveApp({ rootDir: buildDir });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage({ viewport, deviceScaleFactor, locale: 'en-US', baseURL: app.url });
      // The preview shows the wallet itself, not the once-per-session limits notice.
      await page.addInitScript(() => sessionStorage.setItem('hasSeenLimits', 'true'));
      await page.goto('/login');
      await page.getByLabel('Email').fill(seededAccounts.user.email);
      await page.getByLabel('Password', { exact: true }).fill(seededAccounts.user.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/user\/wallet$/);

      await page.getByTestId('wallet-balance').waitFor();
      await page.getByTestId('wallet-qr').waitFor();
      await page.getByRole('table', { name: 'Recent Transactions' }).getByRole('row').nth(1).waitFor();
      // Let coin logos settle and the 'Login successful' toast close (5 s) so the picture is complete.
      await page.waitForLoadState('networkidle');
      await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 10_000 });

      await writeFile(outputFile, await page.screenshot({ type: 'png' }));
      console.log(`Wrote ${path.relative(process.cwd(), outputFile)}`);
    } finally {
      await browser.close();
      await app.stop();
    }
  } finally {
    await stack.stop();
    await rm(buildDir, { recursive: true, force: true });
  }
}

await main();
