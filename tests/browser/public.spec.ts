import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

const legalPages = [
  { path: '/terms-of-service', link: 'Terms of Service' },
  { path: '/privacy-policy', link: 'Privacy Policy' },
  { path: '/disclaimer', link: 'Disclaimer' },
] as const;

/** Keeps a full-page screenshot with the test's results. */
async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const marketSection = (page: Page) => page.getByRole('region', { name: 'Live Cryptocurrency Market Data' });

test.describe('on a wide screen (1280×800)', () => {
  test.use({ viewport: desktop });

  test('the landing page shows the hero and the top 10 coins from the simulator in a table', async ({
    page,
  }, testInfo) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the product' })).toBeVisible();
    await expect(page.getByRole('img', { name: /Preview of the wallet dashboard/ })).toBeVisible();

    const table = marketSection(page).getByRole('table');
    await expect(table).toBeVisible();
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(11);
    await expect(rows.nth(1)).toContainText('Bitcoin');
    await expect(rows.nth(1)).toContainText('BTC');
    await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(rows.nth(1).getByRole('cell').nth(3)).toHaveText(/^-?\d+\.\d{2}%$/);
    await expect(rows.nth(1).getByRole('cell').nth(4)).toHaveText(/^\$\d{1,3}(,\d{3})+$/);
    await expect(marketSection(page).getByText(/Simulated prices/)).toBeVisible();
    await expect(marketSection(page).getByRole('list')).toBeHidden();

    // Logos come from the simulator, served locally.
    const logo = rows.nth(1).locator('img');
    await expect(logo).toHaveAttribute('src', /\/simulator\/images\/bitcoin\.png$/);
    await expect
      .poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);

    await keepScreenshot(page, testInfo, 'landing-desktop');
  });

  test('the hero buttons lead to sign-up and log-in', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.goto('/');
    await page.getByRole('link', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  for (const { path, link } of legalPages) {
    test(`the footer link '${link}' opens a readable page with the company contacts`, async ({
      page,
    }, testInfo) => {
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: link }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: link })).toBeVisible();
      const contacts = page.getByRole('region', { name: 'Questions about this page', exact: true });
      await expect(contacts.locator('a[href^="tel:"]')).toHaveCount(4);
      await expect(contacts.locator('a[href^="mailto:"]')).toHaveCount(1);
      await keepScreenshot(page, testInfo, `legal${path.replace('/', '-')}`);
    });
  }

  test('the footer lists its links, contacts, offices and this year’s copyright', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const [name, href] of [
      ['Sign Up', '/signup'],
      ['Sign In', '/login'],
      ['Terms of Service', '/terms-of-service'],
      ['Privacy Policy', '/privacy-policy'],
      ['Disclaimer', '/disclaimer'],
    ] as const) {
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(footer.locator('a[href^="tel:"]')).toHaveCount(4);
    for (const country of ['Canada', 'United Kingdom', 'Netherlands', 'Switzerland']) {
      await expect(footer.getByRole('region', { name: 'Our Offices' })).toContainText(country);
    }
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  });

  test('an unknown path says the page is not found, with the way home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the product' })).toBeVisible();
  });
});

test.describe('on a small screen (390×844)', () => {
  test.use({ viewport: phone });

  test('the landing page shows the coins as cards', async ({ page }, testInfo) => {
    await page.goto('/');
    const cards = marketSection(page).getByRole('listitem');
    await expect(cards).toHaveCount(10);
    await expect(cards.first()).toContainText('Bitcoin');
    await expect(cards.first()).toContainText('#1');
    await expect(marketSection(page).getByRole('table')).toBeHidden();
    await keepScreenshot(page, testInfo, 'landing-phone');
  });

  test('the menu button opens the menu, a link navigates, and the menu closes', async ({
    page,
  }, testInfo) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Sign Up' })).toBeHidden();

    await header.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#public-menu');
    await expect(menu.getByRole('link')).toHaveText(['Login', 'Sign Up']);
    const box = await menu.getByRole('link', { name: 'Login' }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(40);
    await keepScreenshot(page, testInfo, 'menu-open-phone');

    await menu.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(menu).toBeHidden();
    await expect(header.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('the landing page has no serious or critical accessibility violation', async ({ page }) => {
    await page.goto('/');
    await expect(marketSection(page).getByRole('listitem')).toHaveCount(10);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
