import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { personWithBalance, submitBuyRequest, submitWalletWithdrawal } from './support/admin-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';
import { rejectBuyRequest } from '../support/keyed-calls';

test.use({ locale: 'en-US' });

/** How long a change may take to reach an open page over Realtime. */
const LIVE_BUDGET_MS = 5_000;

test(
  'the side menu counts the pending requests of both queues, following new requests and decisions live',
  { tag: '@shared-state' },
  async ({ page }) => {
    const admin = await workerAdminClient();
    const person = await personWithBalance(admin, 'Counted', 500);
    await openAsWorkerAdmin(page);
    const queues = page.getByRole('navigation', { name: 'Side menu' });
    const buyCount = queues.getByTestId('pending-buyRequests');
    const withdrawCount = queues.getByTestId('pending-withdrawRequests');
    await expect(buyCount).toHaveText(/^\d+ pending$/);
    const countOf = async (badge: typeof buyCount) => Number((await badge.textContent())?.split(' ')[0]);
    const buyBefore = await countOf(buyCount);
    const withdrawBefore = await countOf(withdrawCount);

    const requestId = await submitBuyRequest(person, 30);
    await expect(buyCount).toHaveText(`${buyBefore + 1} pending`, { timeout: LIVE_BUDGET_MS });
    await submitWalletWithdrawal(person, 40, '0x1111222233334444555566667777888899990000');
    await expect(withdrawCount).toHaveText(`${withdrawBefore + 1} pending`, { timeout: LIVE_BUDGET_MS });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await expect(queues.getByRole('link', { name: `Buy requests ${buyBefore + 1} pending` })).toBeVisible();
    await queues.getByRole('link', { name: /^Buy requests/ }).click();
    await expect(page.getByRole('heading', { name: 'Buy requests', level: 1 })).toBeVisible();
    expect((await rejectBuyRequest(admin, requestId)).error).toBeNull();
    await expect(buyCount).toHaveText(`${buyBefore} pending`, { timeout: LIVE_BUDGET_MS });
  },
);
