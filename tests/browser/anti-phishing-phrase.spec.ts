import { expect, test } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { seriousAccessibilityViolations } from './support/accessibility';
import { apiUrl, existingUser, openSignedIn, toast } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { fetchRetryingShed } from '../support/retry-shed';

/** The newest mail to `email` with this subject, as the mailbox shows it (text included). */
async function newestMail(email: string, subject: string) {
  const response = await fetchRetryingShed(`${apiUrl()}/mailbox?to=${encodeURIComponent(email)}`);
  const mails = (await response.json()) as { subject: string; text: string }[];
  return mails.findLast((mail) => mail.subject === subject);
}

test('the account page explains the anti-phishing phrase, refuses a short one, saves it into the e-mails and removes it', async ({
  page,
}) => {
  const person = await existingUser('phrase');
  await skipLimitsNotices(page);
  await openSignedIn(page, person, '/user/account');

  await expect(page.getByRole('heading', { name: 'Anti-phishing phrase', level: 2 })).toBeVisible();
  await expect(page.getByText('Every e-mail we send you starts with them.')).toBeVisible();
  const state = page.getByTestId('anti-phishing-phrase-state');
  await expect(state).toHaveText('You have not chosen a phrase yet.');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  const form = page.getByRole('form', { name: 'Anti-phishing phrase' });
  await form.getByLabel('Your phrase (4 to 40 characters)').fill('owl');
  await form.getByRole('button', { name: 'Save phrase' }).click();
  await expect(toast(page, 'The anti-phishing phrase must be 4 to 40 characters')).toBeVisible();
  await expect(state).toHaveText('You have not chosen a phrase yet.');

  await form.getByLabel('Your phrase (4 to 40 characters)').fill('silver fox at noon');
  await form.getByRole('button', { name: 'Save phrase' }).click();
  await expect(toast(page, 'Anti-phishing phrase saved. We e-mailed you.')).toBeVisible();
  await expect(state).toHaveText('Every e-mail from us starts with: silver fox at noon');
  await page.reload();
  await expect(state).toHaveText('Every e-mail from us starts with: silver fox at noon');

  // Auth's recovery mail (the log-in page's "Forgot password") opens with the phrase.
  const recovery = await fetchRetryingShed(`${apiUrl()}/auth/v1/recover`, {
    method: 'POST',
    headers: { apikey: localDefaults.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email }),
  });
  expect(recovery.status).toBe(200);
  await expect
    .poll(async () => (await newestMail(person.email, 'Reset your password'))?.text.split('\n')[0])
    .toBe('Your anti-phishing phrase: silver fox at noon');

  await page.getByRole('button', { name: 'Remove phrase' }).click();
  await expect(toast(page, 'Anti-phishing phrase removed')).toBeVisible();
  await expect(state).toHaveText('You have not chosen a phrase yet.');
});
