/**
 * Takes real screenshots of the main screens for the README (`docs/screenshots/*.png`) and the landing
 * page's dashboard preview (`public/dashboard-preview.png`, the wallet page): a throwaway seeded stack,
 * the built app, the seeded accounts signed in.
 *
 *   npx tsx scripts/screenshots.ts              # README screenshots and the landing preview
 *   npx tsx scripts/screenshots.ts --docs-only  # README screenshots only
 *
 * Every run differs (random wallet codes, moving simulated prices, dates): commit the images on purpose.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildApp, serveApp } from '../devstack/src/app-server';
import { seededAccounts } from '../devstack/src/config';
import { createNodeClient } from '../tests/support/node-client';
import { logIn } from '../tests/browser/support/auth-people';
import { startStack } from '../devstack/src/stack';

const root = new URL('../', import.meta.url).pathname;
const docsDir = path.join(root, 'docs/screenshots');
const previewFile = path.join(root, 'public/dashboard-preview.png');
const docsOnly = process.argv.includes('--docs-only');

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
// The landing preview: a desktop window drawn at 3/4 scale, 1200 × 800 pixels, the size the hero reserves.
const preview = { viewport: { width: 1600, height: 1067 }, deviceScaleFactor: 0.75 };

/** Waits until the page has settled: data loaded, images drawn, the 'Login successful' toast gone. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 10_000 });
}

async function shoot(page: Page, name: string) {
  await settle(page);
  const file = path.join(docsDir, `${name}.png`);
  await writeFile(file, await page.screenshot({ type: 'png' }));
  console.log(`Wrote ${path.relative(root, file)}`);
}

async function main() {
  const stack = await startStack();
  const buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-screenshots-'));
  try {
    await buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey });
    const app = await serveApp({ rootDir: buildDir });

    // A pending buy request, so the admin's live queue has something to decide.
    const user = createNodeClient(stack.apiUrl, stack.anonKey);
    const { error: signInError } = await user.auth.signInWithPassword(seededAccounts.user);
    if (signInError) throw signInError;
    const { error: buyError } = await user.rpc('create_buy_request', {
      cryptocurrency: 'bitcoin',
      amount: 250,
      idempotency_key: randomUUID(),
    });
    if (buyError) throw buyError;

    await mkdir(docsDir, { recursive: true });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const options = { locale: 'en-US', baseURL: app.url };
      // The pictures show the pages themselves, not the once-per-session limits notices.
      const withoutNotices = () => {
        for (const flag of ['hasSeenLimits', 'hasSeenBuyLimits', 'hasSeenWithdrawLimits']) {
          sessionStorage.setItem(flag, 'true');
        }
      };

      const visitor = await browser.newPage({ ...options, viewport: desktop });
      await visitor.goto('/');
      await visitor.getByRole('table').getByRole('row').nth(10).waitFor();
      await shoot(visitor, 'landing');

      const mobileVisitor = await browser.newPage({ ...options, viewport: phone, isMobile: true });
      await mobileVisitor.goto('/');
      await shoot(mobileVisitor, 'landing-phone');

      const userPage = await browser.newPage({ ...options, viewport: desktop });
      await userPage.addInitScript(withoutNotices);
      await logIn(userPage, seededAccounts.user, /\/user\/wallet$/);
      await userPage.getByTestId('wallet-qr').waitFor();
      await shoot(userPage, 'wallet');
      await userPage.goto('/user/buy');
      await userPage.getByText('Your Buy Requests').waitFor();
      await shoot(userPage, 'buy');
      await userPage.goto('/user/withdraw');
      await shoot(userPage, 'withdraw');

      const adminPage = await browser.newPage({ ...options, viewport: desktop });
      await logIn(adminPage, seededAccounts.admin, /\/admin\/users$/);
      await shoot(adminPage, 'admin-users');
      await adminPage.goto('/admin/buy-requests');
      await adminPage
        .getByRole('button', { name: /approve/i })
        .first()
        .waitFor();
      await shoot(adminPage, 'admin-buy-requests');

      if (!docsOnly) {
        const previewPage = await browser.newPage({ ...options, ...preview });
        await previewPage.addInitScript(withoutNotices);
        await logIn(previewPage, seededAccounts.user, /\/user\/wallet$/);
        await previewPage.getByTestId('wallet-qr').waitFor();
        await settle(previewPage);
        await writeFile(previewFile, await previewPage.screenshot({ type: 'png' }));
        console.log(`Wrote ${path.relative(root, previewFile)}`);
      }
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
