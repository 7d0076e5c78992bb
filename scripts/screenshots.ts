/**
 * Takes real screenshots of every page for docs/screenshots.md (`docs/screenshots/<page>-<width>-<theme>.png`: 1366
 * and 390 wide, light and dark) and the landing page's dashboard preview (`public/dashboard-preview.png`,
 * the wallet page): a throwaway seeded stack, the built app, the seeded accounts signed in. On every page,
 * at every width and in both themes, it checks that nothing scrolls sideways but a table that says so (its
 * box named "…, scrolls sideways"), and fails naming the page otherwise.
 *
 *   npx tsx scripts/screenshots.ts              # docs screenshots and the landing preview
 *   npx tsx scripts/screenshots.ts --docs-only  # docs screenshots only
 *
 * Every run differs (random wallet codes, moving simulated prices, dates): commit the images on purpose.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { buildApp, serveApp } from '../devstack/src/app-server';
import { seededAccounts } from '../supabase/seed-accounts';
import { createNodeClient } from '../tests/support/node-client';
import { logIn } from '../tests/browser/support/auth-people';
import { startStack } from '../devstack/src/stack';

const root = new URL('../', import.meta.url).pathname;
const docsDir = path.join(root, 'docs/screenshots');
const previewFile = path.join(root, 'public/dashboard-preview.png');
const docsOnly = process.argv.includes('--docs-only');

const screens = {
  1366: { viewport: { width: 1366, height: 768 }, isMobile: false },
  390: { viewport: { width: 390, height: 844 }, isMobile: true },
} as const;
const themes = ['light', 'dark'] as const;

/** Who looks: a visitor, the seeded user, the seeded admin, or a person who opened a password-reset e-mail. */
type Who = 'visitor' | 'user' | 'admin' | 'resetting';
/** Every page, including those reached from the e-mails' links. */
const pages: { name: string; path: string; who: Who; heading: string }[] = [
  { name: 'landing', path: '/', who: 'visitor', heading: 'Welcome to the product' },
  { name: 'login', path: '/login', who: 'visitor', heading: 'Log in' },
  { name: 'signup', path: '/signup', who: 'visitor', heading: 'Create your account' },
  { name: 'reset-password', path: '/reset-password', who: 'visitor', heading: 'Reset your password' },
  { name: 'terms-of-service', path: '/terms-of-service', who: 'visitor', heading: 'Terms of Service' },
  { name: 'privacy-policy', path: '/privacy-policy', who: 'visitor', heading: 'Privacy Policy' },
  { name: 'disclaimer', path: '/disclaimer', who: 'visitor', heading: 'Disclaimer' },
  { name: 'proof', path: '/proof', who: 'visitor', heading: 'Proof of liabilities' },
  // The sign-up confirmation link's landing, as shown when the link has expired or opens in another browser
  // (a working link moves straight on to the wallet, with the wallet code).
  { name: 'confirm-signup', path: '/confirm-signup', who: 'visitor', heading: 'Confirmation link expired' },
  { name: 'update-password', path: '/update-password', who: 'resetting', heading: 'Set a new password' },
  { name: 'wallet', path: '/user/wallet', who: 'user', heading: 'Your Wallet' },
  { name: 'buy', path: '/user/buy', who: 'user', heading: 'Buy Cryptocurrency' },
  { name: 'withdraw', path: '/user/withdraw', who: 'user', heading: 'Withdraw Funds' },
  { name: 'account', path: '/user/account', who: 'user', heading: 'Account' },
  { name: 'statement', path: '/user/statement', who: 'user', heading: 'Statement' },
  { name: 'gains', path: '/user/gains', who: 'user', heading: `Gains report ${new Date().getFullYear()}` },
  { name: 'price-alerts', path: '/user/price-alerts', who: 'user', heading: 'Price alerts' },
  { name: 'recurring-buys', path: '/user/recurring-buys', who: 'user', heading: 'Recurring buys' },
  { name: 'admin-users', path: '/admin/users', who: 'admin', heading: 'Users' },
  { name: 'admin-frozen-accounts', path: '/admin/frozen-accounts', who: 'admin', heading: 'Frozen accounts' },
  { name: 'admin-transactions', path: '/admin/transactions', who: 'admin', heading: 'Transactions' },
  { name: 'admin-deposit', path: '/admin/deposit', who: 'admin', heading: 'Deposit' },
  { name: 'admin-status-types', path: '/admin/status-types', who: 'admin', heading: 'Status types' },
  { name: 'admin-buy-requests', path: '/admin/buy-requests', who: 'admin', heading: 'Buy requests' },
  { name: 'admin-sell-requests', path: '/admin/sell-requests', who: 'admin', heading: 'Sell requests' },
  {
    name: 'admin-withdraw-requests',
    path: '/admin/withdraw-requests',
    who: 'admin',
    heading: 'Withdraw requests',
  },
  { name: 'admin-settings', path: '/admin/settings', who: 'admin', heading: 'Settings' },
  { name: 'admin-audit-log', path: '/admin/audit-log', who: 'admin', heading: 'Audit log' },
  { name: 'admin-ledger', path: '/admin/ledger', who: 'admin', heading: 'Ledger' },
];
// The landing preview: a desktop window drawn at 3/4 scale, 1200 × 800 pixels, the size the hero reserves.
const preview = { viewport: { width: 1600, height: 1067 }, deviceScaleFactor: 0.75 };

/** Waits until the page has settled: data loaded, placeholders gone, images drawn, no toast left. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('.animate-pulse').first().waitFor({ state: 'detached', timeout: 15_000 });
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * What scrolls sideways on the page: the page itself, or a box whose content is wider than it and that
 * does not say it scrolls (the app's tables name their box "…, scrolls sideways"). Empty when nothing does.
 */
function sidewaysScrolling(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth > clientWidth) found.push(`the page is ${scrollWidth} px wide in ${clientWidth} px`);
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const { overflowX } = getComputedStyle(element);
      if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
      if (element.scrollWidth <= element.clientWidth + 1) continue;
      if (element.getAttribute('aria-label')?.endsWith(', scrolls sideways')) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${element.className}`;
      found.push(`${name.slice(0, 80)} scrolls sideways without saying so`);
    }
    return found;
  });
}

// The pictures show the pages themselves, not the once-per-session limits notices.
function withoutNotices() {
  for (const flag of ['hasSeenLimits', 'hasSeenBuyLimits', 'hasSeenWithdrawLimits']) {
    sessionStorage.setItem(flag, 'true');
  }
}

/**
 * Opens a password-reset link as a person does: asked for on /reset-password, then opened from the mailbox
 * in the same browser (PKCE), which signs them in on /update-password.
 */
async function openResetLink(page: Page, apiUrl: string, email: string) {
  await page.goto('/reset-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.waitForURL(/\/login$/);
  const mail = (await (await fetch(`${apiUrl}/mailbox?to=${encodeURIComponent(email)}`)).json()) as {
    links: string[];
  }[];
  const link = mail.at(-1)?.links[0];
  if (!link) throw new Error(`No reset e-mail reached ${email}`);
  await page.goto(link);
  await page.waitForURL(/\/update-password$/);
}

/**
 * A page for a visitor, the seeded user, the seeded admin and a person who opened a reset link (`resetting`,
 * an account of its own: Auth mails one person a link a minute at most), each in its own context.
 */
async function signedInPages(
  browser: Browser,
  baseURL: string,
  options: { viewport: { width: number; height: number }; isMobile: boolean; colorScheme: 'light' | 'dark' },
  resetting: { apiUrl: string; email: string },
): Promise<Record<Who, Page>> {
  const open = async () => {
    const page = await browser.newPage({ ...options, hasTouch: options.isMobile, locale: 'en-US', baseURL });
    await page.addInitScript(withoutNotices);
    return page;
  };
  const pages = await Promise.all([open(), open(), open(), open()]);
  const [visitor, user, admin, resettingPerson] = pages as [Page, Page, Page, Page];
  await logIn(user, seededAccounts.user, /\/user\/wallet$/);
  await logIn(admin, seededAccounts.admin, /\/admin\/users$/);
  await openResetLink(resettingPerson, resetting.apiUrl, resetting.email);
  return { visitor, user, admin, resetting: resettingPerson };
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

    // People who forgot their password, one for each width and theme.
    const resettingEmail = (width: string, theme: string) => `ada.lovelace.${width}.${theme}@example.com`;
    for (const theme of themes) {
      for (const width of Object.keys(screens)) {
        const { error } = await createNodeClient(stack.apiUrl, stack.anonKey).auth.signUp({
          email: resettingEmail(width, theme),
          password: `forgotten-${randomUUID()}`,
          options: { data: { full_name: 'Ada Lovelace' } },
        });
        if (error) throw error;
      }
    }

    await mkdir(docsDir, { recursive: true });
    for (const file of await readdir(docsDir)) {
      if (file.endsWith('.png')) await rm(path.join(docsDir, file));
    }
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const problems: string[] = [];
    try {
      for (const theme of themes) {
        for (const [width, screen] of Object.entries(screens)) {
          const pageFor = await signedInPages(
            browser,
            app.url,
            { ...screen, colorScheme: theme },
            { apiUrl: stack.apiUrl, email: resettingEmail(width, theme) },
          );
          for (const { name, path: pagePath, who, heading } of pages) {
            const page = pageFor[who];
            await page.goto(pagePath);
            await page.getByRole('heading', { name: heading, level: 1, exact: true }).waitFor();
            await settle(page);
            for (const problem of await sidewaysScrolling(page))
              problems.push(`${pagePath} at ${width} ${theme}: ${problem}`);
            const file = path.join(docsDir, `${name}-${width}-${theme}.png`);
            await writeFile(file, await page.screenshot({ type: 'png' }));
            console.log(`Wrote ${path.relative(root, file)}`);
          }
          await Promise.all(Object.values(pageFor).map((page) => page.context().close()));
        }
      }

      if (!docsOnly) {
        const previewPage = await browser.newPage({ locale: 'en-US', baseURL: app.url, ...preview });
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
    if (problems.length > 0) {
      console.error(`Sideways scrolling that does not say so:\n${problems.join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await stack.stop();
    await rm(buildDir, { recursive: true, force: true });
  }
}

await main();
