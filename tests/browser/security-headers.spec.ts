import { expect, test, type Page } from '@playwright/test';
import { seededAccounts } from '../../supabase/seed-accounts';
import { openSignedIn } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { openAsWorkerAdmin } from './support/buy-people';
import { openFromMenu } from './support/navigation';

/**
 * Every page is sent with a strict Content-Security-Policy (scripts only from the app, connections only to
 * the app, the API and its WebSocket, no framing) and the other security headers, and runs under it: no
 * page of any area, once loaded and live, reports a single violation.
 */
const publicPages = [
  '/',
  '/login',
  '/signup',
  '/reset-password',
  '/not-me?token=00000000-0000-4000-8000-000000000000',
  '/terms-of-service',
  '/privacy-policy',
  '/disclaimer',
];
/** The signed-in areas walked through their side menus: the entry's label and the page's heading. */
const userPages = [
  { label: 'Buy', heading: 'Buy Cryptocurrency' },
  { label: 'Withdraw', heading: 'Withdraw Funds' },
  { label: 'Account', heading: 'Account' },
];
const adminPages = [
  { label: 'Transactions', heading: 'Transactions' },
  { label: 'Deposit', heading: 'Deposit' },
  { label: 'Status types', heading: 'Status types' },
  { label: 'Buy requests', heading: 'Buy requests' },
  { label: 'Withdraw requests', heading: 'Withdraw requests' },
  { label: 'Settings', heading: 'Settings' },
  { label: 'Audit log', heading: 'Audit log' },
];

/** Collects CSP violations two ways: the page's own event and the browser's console report. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  return violations;
}

/** Waits until the page shown is loaded and live: its data read, and nothing more on the way. */
async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

/**
 * Walks a signed-in area through its side menu from the page shown: each page's code and data load under
 * the policy of the one document, whose listeners see every violation until the test ends (so only the
 * walk's last page waits for the network to be quiet).
 */
async function walkTheMenu(page: Page, entries: readonly { label: string; heading: string }[]) {
  for (const { label, heading } of entries) {
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await openFromMenu(page, label, heading);
  }
  await settled(page);
}

test('every page is sent with the security headers, and its text compressed', async ({ page, request }) => {
  const response = await page.goto('/user/wallet');
  const headers = response?.headers() ?? {};
  const apiUrl = new URL(process.env.API_URL ?? '');
  // The app's own scripts, and inline only the two head scripts of index.html, by their hashes.
  expect(headers['content-security-policy']).toMatch(
    /script-src 'self' 'sha256-[\w+/=]+' 'sha256-[\w+/=]+';/,
  );
  expect(headers['content-security-policy']).toContain(
    `connect-src 'self' ${apiUrl.origin} ws://${apiUrl.host}`,
  );
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers).toMatchObject({
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  });
  expect(headers['permissions-policy']).toContain('camera=()');
  const script = await page.locator('script[type="module"]').first().getAttribute('src');
  const asset = await request.get(script ?? '', { headers: { 'Accept-Encoding': 'gzip, br' } });
  expect(asset.headers()['content-encoding']).toBe('br');
  expect(asset.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect((await request.get('/_headers')).status()).toBe(404);
});

test('no page shows a CSP violation, signed out, as a user and as an admin', async ({ page }) => {
  test.setTimeout(180_000);
  const violations = await watchViolations(page);
  await skipLimitsNotices(page);
  for (const path of publicPages) {
    await page.goto(path);
    await settled(page);
  }
  await openSignedIn(page, seededAccounts.user);
  await walkTheMenu(page, userPages);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await openAsWorkerAdmin(page);
  await walkTheMenu(page, adminPages);
  expect(violations).toEqual([]);
});
