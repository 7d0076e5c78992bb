import { expect, type Page } from '@playwright/test';

/** The session flags of the wallet's, the buy page's and the withdraw page's limits notices. */
const limitsNoticeFlags = {
  wallet: 'hasSeenLimits',
  buy: 'hasSeenBuyLimits',
  withdraw: 'hasSeenWithdrawLimits',
} as const;

const limitsNoticePages: Record<keyof typeof limitsNoticeFlags, string> = {
  wallet: '/user/wallet',
  buy: '/user/buy',
  withdraw: '/user/withdraw',
};

/**
 * Marks the limits notices (all but `except`) as seen in this browser session (the app's session
 * cookies), so none opens over the page a test is about: each is a modal that opens a moment after its
 * page loads, takes the pointer and hides the rest of the page.
 */
export async function skipLimitsNotices(page: Page, except?: keyof typeof limitsNoticeFlags): Promise<void> {
  const url = process.env.APP_URL;
  if (!url) throw new Error('APP_URL is not set: run the browser tests through the Playwright global setup');
  const flags = Object.entries(limitsNoticeFlags)
    .filter(([notice]) => notice !== except)
    .map(([, flag]) => flag);
  await page.context().addCookies(flags.map((name) => ({ name, value: 'true', url })));
}

/** Whether the app has set this limits notice's flag for the browser session. */
export async function limitsNoticeSeen(page: Page, notice: keyof typeof limitsNoticeFlags): Promise<boolean> {
  const cookies = await page.context().cookies();
  return cookies.some(({ name, value }) => name === limitsNoticeFlags[notice] && value === 'true');
}

/**
 * The witness that a limits notice due on a page already open would be showing by now: `witness`'s flag
 * cleared and its page opened in a new tab of the same session. That notice opens 1.5 s after its page
 * loads its limits, so it comes later than any notice of a page that loaded its limits before.
 */
export async function untilALaterNoticeShows(page: Page, witness: keyof typeof limitsNoticeFlags) {
  await page.context().clearCookies({ name: limitsNoticeFlags[witness] });
  const tab = await page.context().newPage();
  await tab.goto(limitsNoticePages[witness]);
  await expect(tab.getByRole('dialog', { name: 'Important Transaction Limits' })).toBeVisible({
    timeout: 10_000,
  });
  await tab.close();
}
