import { expect, test } from '@playwright/test';
import { personWithBalance } from './support/admin-people';
import { openSignedIn } from './support/auth-people';
import { workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';
import { approveBuyRequest, idOf, requestBuy } from '../support/keyed-calls';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

test('coins go by their names, statuses by one case, and every date by one format with its time zone', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Vocabulary', 500);
  // A coin the market list on screen does not hold (the provider answers with Bitcoin and Ethereum only).
  const requestId = await idOf(requestBuy(person.client, 'binancecoin', 20));
  const approval = await approveBuyRequest(admin, requestId);
  if (approval.error) throw approval.error;
  await stubMarketProvider(page);
  await skipLimitsNotices(page);

  await openSignedIn(page, person);
  const transactions = page.getByRole('table', { name: 'Recent Transactions' });
  const buy = transactions.getByRole('row').filter({ hasText: '$20.00' });
  await expect(buy).toContainText('Buy (BNB)');
  await expect(buy.locator('[data-tone]')).toHaveText('Complete');
  await expect(buy.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}\d{2}:\d{2} [AP]M UTC$/);
  await expect(transactions).not.toContainText('binancecoin');

  await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
  const row = page.getByTestId('buy-request-row').filter({ hasText: '$20.00' });
  await expect(row).toContainText('BNB');
  await expect(row).not.toContainText('binancecoin');
  await expect(row.locator('[data-tone]')).toHaveText('Approved');
  await expect(row.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}\d{2}:\d{2} [AP]M UTC$/);
});
