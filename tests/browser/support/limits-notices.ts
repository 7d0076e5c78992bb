import type { Page } from '@playwright/test';

/** The session flags of the wallet's, the buy page's and the withdraw page's limits notices. */
const limitsNoticeFlags = {
  wallet: 'hasSeenLimits',
  buy: 'hasSeenBuyLimits',
  withdraw: 'hasSeenWithdrawLimits',
} as const;

/**
 * Marks the limits notices (all but `except`) as seen in this browser session, so none opens over the
 * page a test is about: each is a modal that opens a moment after its page loads, takes the pointer and
 * hides the rest of the page.
 */
export async function skipLimitsNotices(page: Page, except?: keyof typeof limitsNoticeFlags): Promise<void> {
  const flags = Object.entries(limitsNoticeFlags)
    .filter(([notice]) => notice !== except)
    .map(([, flag]) => flag);
  await page.addInitScript((seen: string[]) => {
    for (const flag of seen) sessionStorage.setItem(flag, 'true');
  }, flags);
}
