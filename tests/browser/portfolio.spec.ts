import { expect, test } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { createNodeClient } from '../support/node-client';
import { approveBuyRequest, idOf, requestBuy } from '../support/keyed-calls';
import { seriousAccessibilityViolations } from './support/accessibility';
import { apiUrl, openSignedIn } from './support/auth-people';
import { workerAdminClient, signUpFundedBuyer } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';

test.use({ locale: 'en-US' });

/** Bitcoin's price in the stubbed provider's answer (the page's live price). */
const LIVE_BITCOIN_PRICE = 30_000;
const usd = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

test('a buy an admin approves appears in the portfolio with its quantity, live value and cost, without a reload', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 1000);
  const person = createNodeClient(apiUrl(), localDefaults.anonKey);
  await person.auth.signInWithPassword(buyer);
  const requestId = await idOf(requestBuy(person, 'bitcoin', 300));
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);

  const portfolio = page.getByRole('table', { name: 'Portfolio' });
  await expect(portfolio).toContainText('You hold no coins yet: approved buy requests appear here.');
  // The pending buy already holds its 300 USD back.
  await expect(page.getByTestId('portfolio-usd-balance')).toHaveText('USD balance$700.00');

  expect((await approveBuyRequest(admin, requestId)).error).toBeNull();
  // The server filled it at its own current price; the page values it at the live one.
  const { data: entry, error } = await admin
    .from('transactions')
    .select('quantity, price')
    .eq('buy_request_id', requestId)
    .single();
  if (error) throw error;
  const quantity = Number(entry.quantity);
  const cost = 300;
  const value = quantity * LIVE_BITCOIN_PRICE;

  const row = page.getByTestId('portfolio-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(0)).toContainText('Bitcoin');
  await expect(row.getByRole('cell').nth(1)).toHaveText(quantity.toFixed(8));
  await expect(row.getByRole('cell').nth(2)).toHaveText(usd(value));
  await expect(row.getByRole('cell').nth(3)).toHaveText(usd(Number(entry.price)));
  const profit = value - cost;
  await expect(row.getByRole('cell').nth(4)).toContainText(
    usd(profit).replace(/^-?/, profit < 0 ? '-' : '+'),
  );
  await expect(page.getByTestId('portfolio-usd-balance')).toHaveText('USD balance$700.00');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
