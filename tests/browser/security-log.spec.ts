import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { existingUser, logIn, withDatabase } from './support/auth-people';

test('the security log lists sign-ins live, newest first; the person checks its chain, downloads it, and sees an altered entry named', async ({
  page,
  browser,
}) => {
  const account = await existingUser('security-log');
  await logIn(page, account);
  await page.getByRole('link', { name: 'Security log' }).click();
  await expect(page).toHaveURL(/\/user\/security-log$/);
  const entries = page.getByRole('table', { name: 'Security log' }).getByTestId('security-log-entry');
  await expect(entries.first()).toContainText('Signed in');
  await expect(entries.first()).toContainText('127.0.0.1');
  const before = await entries.count();

  // A sign-in elsewhere shows at the top while the page is open.
  const otherBrowser = await browser.newContext();
  await logIn(await otherBrowser.newPage(), account);
  await expect(entries).toHaveCount(before + 1);
  await expect(entries.first()).toContainText(new RegExp(`^${before + 1}\\D.*Signed in`));
  await otherBrowser.close();

  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `The chain is intact: entries 1 to ${before + 1} are as they were written.`,
  );
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('security-log.csv');
  const [header, first] = (await readFile(await download.path(), 'utf8')).split('\r\n');
  expect(header).toBe('Entry,Time,Event,What happened,Address,Device (user agent),Previous hash,Hash');
  expect(first).toMatch(/^1,[^,]+,sign_in,Signed in,/);
  expect(first).toContain(`,${'0'.repeat(64)},`);

  // Someone with the database's keys rewrites where the first sign-in came from.
  await withDatabase((client) =>
    client.query(
      `update public.security_log set ip = '192.0.2.1'
        where seq = 1 and user_id = (select id from auth.users where email = lower($1))`,
      [account.email],
    ),
  );
  await page.reload();
  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByRole('status')).toContainText('The chain is broken');
  await expect(page.getByRole('status')).toContainText('Entry 1: hash differs from contents');
});
