import { expect, test, type Browser, type Page } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { createNodeClient } from '../support/node-client';
import { seriousAccessibilityViolations } from './support/accessibility';
import { confirmAdminAction } from './support/admin-actions';
import { openSignedIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, type Buyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices, untilALaterNoticeShows } from './support/limits-notices';
import { serverPrice, stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';
import { aSecondAtATimeUntil } from './support/page-clock';
import { idOf, requestBuy } from '../support/keyed-calls';

test.use({ locale: 'en-US' });

/** The buyer, signed in, on the buy page (reached through the side menu, as a person does). */
async function openBuyPage(page: Page, buyer: Buyer) {
  await openSignedIn(page, buyer);
  await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
}

/**
 * axe-core's serious findings on the page at rest: the pointer off the buttons and the toasts gone
 * (toasts come from the app-wide Toaster and are checked with it, not per page).
 */
async function violationsAtRest(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  return seriousAccessibilityViolations(page);
}

/** The worker's admin at the live buy queue, in a browser context of their own. */
async function openAdminQueue(browser: Browser): Promise<Page> {
  const adminPage = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await openAsWorkerAdmin(adminPage);
  await openFromMenu(adminPage, 'Buy requests', 'Buy requests');
  return adminPage;
}

/** The admin's Approve or Reject button for the buyer's request of that amount. */
function decisionButton(adminPage: Page, decision: 'Approve' | 'Reject', buyer: Buyer, amount: string) {
  return adminPage.getByRole('button', { name: `${decision} ${buyer.fullName}'s request of ${amount}` });
}

/** A buyer with $100 whom no admin session follows, on a page whose market provider is stubbed. */
async function newBuyer(page: Page): Promise<Buyer> {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 100);
  await stubMarketProvider(page);
  return buyer;
}

async function submitBuyRequest(page: Page, coinId: string, amount: string) {
  await page.getByLabel('Cryptocurrency').selectOption(coinId);
  await page.getByLabel('Amount (USD)').fill(amount);
  await page.getByRole('button', { name: 'Submit Buy Request' }).click();
}

test('a user buys, an admin approves, and the request turns approved and the balance drops without a reload', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 1000);
  // The page shows the server's price, so the request's limit (2 % above it) lets the approval fill.
  const price = await serverPrice(admin, 'bitcoin');
  await stubMarketProvider(page, undefined, { bitcoin: price });
  await skipLimitsNotices(page);
  await openBuyPage(page, buyer);

  await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();
  const balance = page.getByTestId('available-balance');
  await expect(balance).toHaveText('$1,000.00');

  await page.getByLabel('Cryptocurrency').selectOption('bitcoin');
  await page.getByLabel('Amount (USD)').fill('250');
  await expect(page.getByTestId('buy-estimate')).toHaveText(`${(250 / price).toFixed(8)} BTC`);
  // The request is held on its way to the server: the new row must show before any answer.
  let letRequestThrough: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    letRequestThrough = resolve;
  });
  let heldRequests = 0;
  await page.route('**/rest/v1/rpc/create_buy_request**', async (route) => {
    heldRequests++;
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Submit Buy Request' }).click();

  const rows = page.getByTestId('buy-request-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Bitcoin');
  await expect(rows.first()).toContainText('$250.00');
  await expect(rows.first().getByText('pending')).toHaveAttribute('data-tone', 'yellow');
  expect(heldRequests).toBe(1);
  letRequestThrough();
  await expect(page.getByText('Buy request submitted successfully')).toBeVisible();
  await expect(rows).toHaveCount(1);

  const adminPage = await openAdminQueue(browser);
  await decisionButton(adminPage, 'Approve', buyer, '$250.00').click();
  await confirmAdminAction(adminPage, 'Approve');
  await expect(adminPage.getByText('Buy request approved')).toBeVisible();

  await expect(rows.first().getByText('approved')).toHaveAttribute('data-tone', 'green');
  await expect(balance).toHaveText('$750.00');
  expect(await violationsAtRest(page)).toEqual([]);
  await adminPage.context().close();
});

test('a buy request whose first answer is lost is retried with its key: one request, and the person is told it was received', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 500);
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openBuyPage(page, buyer);
  await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();

  // The first submission reaches the server and is stored, but its answer never arrives.
  const keys: string[] = [];
  await page.route('**/rest/v1/rpc/create_buy_request**', async (route) => {
    keys.push((route.request().postDataJSON() as { idempotency_key: string }).idempotency_key);
    if (keys.length > 1) return route.continue();
    await route.fetch();
    await route.abort('connectionreset');
  });
  await submitBuyRequest(page, 'bitcoin', '120');

  await expect(page.getByText('Buy request submitted successfully')).toBeVisible();
  await expect(page.getByText('The connection dropped, but your request was received, once.')).toBeVisible();
  const rows = page.getByTestId('buy-request-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('$120.00');
  expect(keys.length).toBe(2);
  expect(keys[1]).toBe(keys[0]);
  const { data } = await admin.from('buy_requests').select('amount').eq('user_id', buyer.id);
  expect(data).toEqual([{ amount: 120 }]);
});

test('a buy request that never gets an answer says it is not confirmed, and sending it again makes one request', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 500);
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openBuyPage(page, buyer);
  await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();

  let outage = true;
  const keys: string[] = [];
  await page.route('**/rest/v1/rpc/create_buy_request**', async (route) => {
    keys.push((route.request().postDataJSON() as { idempotency_key: string }).idempotency_key);
    if (!outage) return route.continue();
    await route.fetch();
    await route.abort('connectionreset');
  });
  await submitBuyRequest(page, 'bitcoin', '75');
  await expect(
    page.getByText(
      'No answer from the server, so your request is not confirmed. Send it again: it will not be made twice.',
    ),
  ).toBeVisible({ timeout: 15_000 });

  outage = false;
  await submitBuyRequest(page, 'bitcoin', '75');
  await expect(page.getByText('Buy request submitted successfully')).toBeVisible();
  expect(new Set(keys).size).toBe(1);
  const { data } = await admin.from('buy_requests').select('amount').eq('user_id', buyer.id);
  expect(data).toEqual([{ amount: 75 }]);
});

test('a buy is an order: its USD is reserved at once, more than is available is refused, the owner cancels, and a rejection says why', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 100);
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openBuyPage(page, buyer);
  const available = page.getByTestId('available-balance');
  await expect(available).toHaveText('$100.00');

  // More than is available: refused on the form, nothing sent.
  await submitBuyRequest(page, 'ethereum', '500');
  await expect(page.getByText('Insufficient balance (including all pending requests)').first()).toBeVisible();
  await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();

  await submitBuyRequest(page, 'ethereum', '60');
  await expect(page.getByText('Buy request submitted successfully')).toBeVisible();
  await expect(available).toHaveText('$40.00');
  const newest = page.getByTestId('buy-request-row').first();
  await expect(newest).toContainText('Limit $');
  await expect(newest).toContainText('Expires ');

  await newest.getByRole('button', { name: 'Cancel your buy of $60.00 of Ethereum' }).click();
  const confirmCancel = page.getByRole('dialog', { name: 'Cancel this request?' });
  await expect(confirmCancel).toContainText('The amount it reserved is available again at once.');
  await confirmCancel.getByRole('button', { name: 'Cancel request' }).click();
  await expect(page.getByText('Request cancelled')).toBeVisible();
  await expect(newest.getByText('cancelled')).toHaveAttribute('data-tone', 'gray');
  await expect(available).toHaveText('$100.00');
  await expect(newest.getByRole('button', { name: /^Cancel / })).toHaveCount(0);

  await submitBuyRequest(page, 'bitcoin', '30');
  await expect(page.getByText('Buy request submitted successfully').first()).toBeVisible();
  await expect(available).toHaveText('$70.00');
  const adminPage = await openAdminQueue(browser);
  await decisionButton(adminPage, 'Reject', buyer, '$30.00').click();
  await confirmAdminAction(adminPage, 'Reject', 'Your limit is too far from the market');
  await expect(newest.getByText('rejected')).toHaveAttribute('data-tone', 'red');
  await expect(newest).toContainText('Reason: Your limit is too far from the market');
  await expect(available).toHaveText('$100.00');
  expect(await violationsAtRest(page)).toEqual([]);
  await adminPage.context().close();
});

test('the limits notice shows once per session and the form refuses amounts outside the limits', async ({
  page,
}) => {
  // Eight form steps, a reload and a second page as the witness: past the default minute on a busy machine.
  test.setTimeout(120_000);
  const buyer = await newBuyer(page);
  // The wallet page (where log-in lands) has its own notice; this test is about the buy page's.
  await skipLimitsNotices(page, 'buy');
  await openBuyPage(page, buyer);

  const notice = page.getByRole('dialog', { name: 'Important Transaction Limits' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('$10.00');
  await expect(notice).toContainText('$10,000.00');
  await notice.getByRole('button', { name: 'I Understand' }).click();
  await expect(notice).toBeHidden();

  await submitBuyRequest(page, 'bitcoin', '5');
  await expect(page.getByText('Minimum amount is $10', { exact: true })).toBeVisible();
  expect(await violationsAtRest(page)).toEqual([]);
  await page.getByLabel('Amount (USD)').fill('10000.01');
  await page.getByRole('button', { name: 'Submit Buy Request' }).click();
  await expect(page.getByText('Maximum amount is $10,000', { exact: true })).toBeVisible();
  await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();

  await page.reload();
  // The form shows once the limits have loaded, when the notice's delay would start.
  await expect(page.getByRole('button', { name: 'Submit Buy Request' })).toBeVisible();
  // A notice opened later on another page shows; this one stays away for the rest of the session.
  await untilALaterNoticeShows(page, 'withdraw');
  await expect(notice).toBeHidden();
});

test('an amount with a third decimal is refused in the field with the two-decimal rule, and nothing is sent', async ({
  page,
}) => {
  const buyer = await newBuyer(page);
  await skipLimitsNotices(page);
  await openBuyPage(page, buyer);
  // Reads of the restrictions are POSTs to /rpc too; only the buy request's own call would be a send.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/rpc/create_buy_request')) sent.push(request.url());
  });

  await submitBuyRequest(page, 'bitcoin', '10.005');
  await expect(page.getByText('Amount can have at most 2 decimal places', { exact: true })).toBeVisible();
  await expect(page.getByText('Failed to submit buy request. Please try again.')).toHaveCount(0);
  await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();
  expect(sent).toEqual([]);
});

test('when the request list cannot be loaded the page says so, and the form still works', async ({
  page,
}) => {
  const buyer = await newBuyer(page);
  await skipLimitsNotices(page);
  // The network fails for reading the list only (an outage, not a stand-in for our API).
  await page.route('**/rest/v1/buy_requests_with_fill?**', (route) =>
    route.request().method() === 'GET' ? route.abort('connectionreset') : route.continue(),
  );
  // The page's clock is moved on rather than waited for: supabase-js tries a lost connection 3 more times
  // (1, 2 and 4 s apart) before the error shows.
  await page.clock.install();
  await openBuyPage(page, buyer);

  const failed = page.getByText('Failed to fetch buy requests. Please try again later.');
  await aSecondAtATimeUntil(page, () => expect(failed).toBeVisible({ timeout: 100 }));
  await submitBuyRequest(page, 'bitcoin', '20');
  await expect(page.getByText('Buy request submitted successfully')).toBeVisible();
});

test(
  'limits an admin changes after the page loaded are enforced by the server, and the form takes them up',
  { tag: '@shared-state' },
  async ({ page }) => {
    const admin = await workerAdminClient();
    const buyer = await signUpFundedBuyer(admin, 2000);
    await stubMarketProvider(page);
    await skipLimitsNotices(page);
    await openBuyPage(page, buyer);

    const setLimits = (min_amount: number, max_amount: number) =>
      admin.from('transaction_limits').update({ min_amount, max_amount }).eq('id', true);
    expect((await setLimits(10, 500)).error).toBeNull();
    try {
      await submitBuyRequest(page, 'bitcoin', '1000');
      await expect(page.getByText('Maximum transaction amount is $500')).toBeVisible();
      await expect(page.getByText('You have no buy requests at the moment.')).toBeVisible();
      // The refusal made the form reload the limits; the amount field's bound shows when they have arrived.
      await expect(page.getByLabel('Amount (USD)')).toHaveAttribute('max', '500');
      await page.getByRole('button', { name: 'Submit Buy Request' }).click();
      await expect(page.getByText('Maximum amount is $500', { exact: true })).toBeVisible();
    } finally {
      expect((await setLimits(10, 10000)).error).toBeNull();
    }
  },
);

test('when the market data fails the page says so, and Retry reloads it', async ({ page }) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 100);
  await skipLimitsNotices(page);
  let marketUp = false;
  await stubMarketProvider(page, () => marketUp);
  await openBuyPage(page, buyer);

  await expect(page.getByText('Failed to fetch cryptocurrency data. Please try again later.')).toBeVisible();
  await expect(page.getByLabel('Cryptocurrency')).toBeHidden();
  marketUp = true;
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Retry' }).click();
  await reloaded;
  await expect(page.getByLabel('Cryptocurrency')).toBeVisible();
  await expect(page.getByRole('option', { name: /Ethereum \(ETH\)/ })).toBeAttached();
});

test('the request list shows the newest 50 and loads older ones on request', async ({ page }) => {
  const admin = await workerAdminClient();
  // Each pending buy reserves its amount: 52 buys of $10 to $61 take $1,846.
  const buyer = await signUpFundedBuyer(admin, 2000);
  const client = createNodeClient(process.env.API_URL ?? '', localDefaults.anonKey);
  await client.auth.signInWithPassword(buyer);
  // One after another, as a person sends them: the list's order is the order they were made in.
  for (let i = 0; i < 52; i += 1) await idOf(requestBuy(client, 'bitcoin', 10 + i));
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openBuyPage(page, buyer);

  const rows = page.getByTestId('buy-request-row');
  await expect(rows).toHaveCount(50);
  await page.getByRole('button', { name: 'Show older requests' }).click();
  await expect(rows).toHaveCount(52);
  await expect(page.getByRole('button', { name: 'Show older requests' })).toHaveCount(0);
});
