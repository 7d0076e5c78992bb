import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { existingUser, logIn, withDatabase } from './support/auth-people';
import { openAsWorkerAdmin } from './support/buy-people';

/** Signs `email` in `count` times straight in the database (each a new Auth session): a long log. */
const signInsOf = (email: string, count: number) =>
  withDatabase((client) =>
    client.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal, ip, user_agent)
       select gen_random_uuid(), users.id, now(), now(), 'aal1', ('198.51.100.' || n)::inet, 'curl/8.5.0'
       from auth.users, generate_series(1, $2::integer) as n where users.email = lower($1)`,
      [email, count],
    ),
  );

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

test('an admin opens a person’s security log from Users: newest first, a page at a time, live, as CSV', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const account = await existingUser('admin-reads-log');
  // The sign-up's own session is entry 1; 60 more make two pages of 50.
  await signInsOf(account.email, 60);

  await openAsWorkerAdmin(page, '/admin/users');
  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(account.email);
  // The search is in the address once applied (debounced): only then is the list this person's row.
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByTestId('admin-user-row')).toHaveCount(1);
  await page
    .getByTestId('admin-user-row')
    .filter({ hasText: account.email })
    .getByRole('link', { name: 'Security log of Account Tester' })
    .click();
  await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}\/security-log$/);
  await expect(page.getByRole('heading', { name: 'Security log' })).toBeVisible();
  await expect(page.getByTestId('security-log-owner')).toHaveText(`Account Tester · ${account.email}`);

  const entries = page.getByRole('table', { name: 'Security log' }).getByTestId('security-log-entry');
  const pages = page.getByRole('navigation', { name: 'Security log pages' });
  await expect(entries).toHaveCount(50);
  await expect(entries.first()).toContainText(/^61\D.*Signed in/);
  await expect(pages).toContainText('Entries 12 to 61');

  await pages.getByRole('button', { name: 'Older entries' }).click();
  await expect(pages).toContainText('Entries 1 to 11');
  await expect(entries).toHaveCount(11);
  await expect(pages.getByRole('button', { name: 'Older entries' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Newer entries' }).click();
  await expect(pages).toContainText('Entries 12 to 61');

  // A sign-in while the admin looks shows at the top.
  await signInsOf(account.email, 1);
  await expect(entries.first()).toContainText(/^62\D.*Signed in/);
  await expect(pages).toContainText('Entries 13 to 62');

  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'The chain is intact: entries 1 to 62 are as they were written.',
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(lines).toHaveLength(63);
  expect(lines[62]).toMatch(/^62,[^,]+,sign_in,Signed in,198\.51\.100\.1,/);
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);
});
