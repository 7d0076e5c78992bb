import { expect, test } from '@playwright/test';

test('the app built against the throwaway stack opens and renders its landing page', async ({
  page,
  baseURL,
}) => {
  expect(baseURL).toBe(process.env.APP_URL);
  expect(baseURL).not.toContain(':5173');
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.locator('#root')).not.toBeEmpty();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
});

test('a deep link to a client-side route is served the app, not a 404', async ({ page }) => {
  const response = await page.goto('/login');
  expect(response?.status()).toBe(200);
  await expect(page.locator('#root')).not.toBeEmpty();
});

test('/robots.txt is a robots file that keeps search engines out of the signed-in areas, not the app', async ({
  request,
}) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  const rules = (await response.text()).split('\n');
  expect(rules).toContain('User-agent: *');
  expect(rules).toEqual(expect.arrayContaining(['Disallow: /user', 'Disallow: /admin']));
  expect(rules.join('\n')).not.toContain('<html');
});
