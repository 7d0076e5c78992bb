import { expect, test, type Page } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { existingUser, logIn, openSignedIn } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { openFromMenu } from './support/navigation';
import { adminLanding, openAsWorkerAdmin } from './support/buy-people';

// Log-in lands in the wallet, whose limits notice (a modal) is not what these tests are about.
test.beforeEach(async ({ page }) => skipLimitsNotices(page));

const phone = { width: 390, height: 844 };

const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Side menu' });

test.describe('guards', () => {
  for (const path of ['/dashboard', '/user', '/user/wallet', '/user/account', '/admin', '/admin/users']) {
    test(`a visitor asking for ${path} is sent to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    });
  }

  test('a signed-in user is sent from /dashboard to the wallet, and is told an admin page is not theirs', async ({
    page,
  }) => {
    await openSignedIn(page, await existingUser('guard-user'));
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/user\/wallet$/);
    await page.goto('/admin/users');
    await expect(page.getByText('You do not have permission to view this page.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole('heading', { name: 'Log in' })).toHaveCount(0);
    await expect(page).toHaveTitle('Access denied · CoinVault');
    await page.getByRole('link', { name: 'Go to my area' }).click();
    await expect(page).toHaveURL(/\/user\/wallet$/);
  });

  for (const path of ['/login', '/signup']) {
    test(`a signed-in person opening ${path} goes on to their area`, async ({ page }) => {
      await openSignedIn(page, await existingUser('signed-in-visit'));
      await page.goto(path);
      await expect(page).toHaveURL(/\/user\/wallet$/);
      await expect(page.getByRole('heading', { name: 'Your Wallet', level: 1 })).toBeVisible();
    });
  }

  test('a signed-in admin opening /login goes on to the admin area', async ({ page }) => {
    await openAsWorkerAdmin(page, '/login', adminLanding);
    await expect(page).toHaveURL(adminLanding);
  });

  test('an admin is sent from /dashboard to the admin area, with its own side menu', async ({ page }) => {
    await openAsWorkerAdmin(page, '/dashboard', adminLanding);
    await expect(page).toHaveURL(adminLanding);
    const menu = sideMenu(page);
    await expect(menu.getByRole('heading')).toHaveText([
      'User Management',
      'Transactions',
      'Requests',
      'System',
    ]);
    await expect(menu.getByRole('link')).toHaveText([
      'Users',
      'Frozen accounts',
      'Transactions',
      'Deposit',
      'Status types',
      // The queues' entries carry their live pending counts.
      /^Buy requests\s*\d+ pending$/,
      /^Sell requests\s*\d+ pending$/,
      /^Withdraw requests\s*\d+ pending$/,
      'Settings',
      'Audit log',
      'Ledger',
      'Logout',
    ]);
    await expect(menu.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test.describe('signed-in shell on a desktop screen', () => {
  test('the first Tab reaches a skip link that moves the keyboard past the menus to the page', async ({
    page,
  }) => {
    await openSignedIn(page, await existingUser('skip-link'));
    await expect(page.getByRole('heading', { name: 'Your Wallet', level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    const skipLink = page.getByRole('link', { name: 'Skip to content' });
    await expect(skipLink).toBeFocused();
    await expect(skipLink).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
  });

  test('every page names itself in the browser tab', async ({ page }) => {
    const titles: Record<string, string> = {
      '/': 'Track, analyse and buy cryptocurrency · CoinVault',
      '/login': 'Log in · CoinVault',
      '/signup': 'Sign up · CoinVault',
      '/reset-password': 'Reset your password · CoinVault',
      '/privacy-policy': 'Privacy Policy · CoinVault',
    };
    for (const [path, title] of Object.entries(titles)) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(title);
    }
    await openSignedIn(page, await existingUser('titles'));
    await expect(page).toHaveTitle('Your Wallet · CoinVault');
    await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
    await expect(page).toHaveTitle('Buy Cryptocurrency · CoinVault');
    await openFromMenu(page, 'Withdraw', 'Withdraw Funds');
    await expect(page).toHaveTitle('Withdraw Funds · CoinVault');
    await openFromMenu(page, 'Account', 'Account');
    await expect(page).toHaveTitle('Account · CoinVault');
  });

  test('shows the top bar and the user side menu with the current page highlighted', async ({ page }) => {
    await openSignedIn(page, await existingUser('shell'), '/user/account');
    const topBar = page.getByRole('banner');
    await expect(topBar.getByRole('link', { name: 'CoinVault' })).toHaveAttribute('href', '/dashboard');
    await expect(topBar.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/user/account');
    await expect(topBar.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();

    const menu = sideMenu(page);
    await expect(menu.getByRole('heading')).toHaveText(['Trading', 'Settings']);
    await expect(menu.getByRole('link')).toHaveText([
      'Wallet',
      'Buy',
      'Recurring buys',
      'Price alerts',
      'Withdraw',
      'Account',
      'Security log',
      'Logout',
    ]);
    await expect(menu.getByRole('link', { name: 'Account' })).toHaveAttribute('aria-current', 'page');
    await menu.getByRole('link', { name: 'Buy', exact: true }).click();
    await expect(page).toHaveURL(/\/user\/buy$/);
    await expect(menu.getByRole('link', { name: 'Buy', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(menu.getByRole('link', { name: 'Account' })).not.toHaveAttribute('aria-current', 'page');

    await topBar.getByRole('link', { name: 'CoinVault' }).click();
    await expect(page).toHaveURL(/\/user\/wallet$/);
  });
});

/** Paths of the script files the page asks the network for, as they are asked for. */
function scriptRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') paths.push(new URL(request.url()).pathname);
  });
  return paths;
}

/** A page's own chunk: its file name and Vite's 8-character content hash. */
const pageChunk = (names: string) => new RegExp(`/assets/(${names})-[\\w-]{8}\\.js$`);

test.describe('moving between pages', () => {
  test('an area’s other pages load while the first is shown, so the side menu opens them without the network', async ({
    page,
  }) => {
    const scripts = scriptRequests(page);
    await logIn(page, await existingUser('preload'));
    const otherPages = pageChunk('buy|withdraw|account');
    await expect
      .poll(() => scripts.filter((script) => otherPages.test(script)).length, { timeout: 10_000 })
      .toBe(3);
    // From here on no code arrives: each page opens from what the browser already has.
    await page.route(/\.js$/, (route) => route.abort());
    await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
    await openFromMenu(page, 'Withdraw', 'Withdraw Funds');
    await openFromMenu(page, 'Account', 'Account');
  });

  test('a user turned away from the admin area downloads none of its other pages', async ({ page }) => {
    await logIn(page, await existingUser('outsider-preload'));
    const scripts = scriptRequests(page);
    await page.goto('/admin/users');
    await expect(page.getByText('You do not have permission to view this page.')).toBeVisible();
    // The witness: a tab opened later, in the area the person is admitted to, loads that area's other
    // pages (1.5 s, then an idle moment); had the refused area been going to load its own, it had by then.
    const witness = await page.context().newPage();
    const witnessScripts = scriptRequests(witness);
    await witness.goto('/user/wallet');
    const userPages = pageChunk('buy|withdraw|account');
    await expect
      .poll(() => witnessScripts.filter((script) => userPages.test(script)).length, { timeout: 10_000 })
      .toBe(3);
    const otherAdminPages = pageChunk(
      'transactions|deposit|status-types|buy-requests|withdraw-requests|settings|audit-log',
    );
    expect(scripts.filter((script) => otherAdminPages.test(script))).toEqual([]);
  });
});

test.describe('signed-in shell on a small screen', () => {
  test.use({ viewport: phone });

  test('hides the side menu behind a toggle; Escape, the close button, the backdrop and a link close it', async ({
    page,
  }) => {
    await openSignedIn(page, await existingUser('mobile'), '/user/account');
    await expect(sideMenu(page)).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Open menu' });

    await toggle.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(page.getByTestId('sheet-backdrop')).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'Account' })).toHaveAttribute('aria-current', 'page');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();

    await toggle.click();
    // Radix starts listening for outside clicks only once the opened drawer has taken focus; a person
    // cannot click sooner, a test can (that race failed CI once).
    await expect(drawer.locator(':focus')).toHaveCount(1);
    // The backdrop covers the page to the right of the drawer.
    await page.mouse.click(phone.width - 20, phone.height / 2);
    await expect(drawer).toBeHidden();

    await toggle.click();
    await drawer.getByRole('link', { name: 'Withdraw' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/user\/withdraw$/);
  });

  test('the drawer works from the keyboard and ends with Logout', async ({ page }) => {
    await openSignedIn(page, await existingUser('mobile-keys'), '/user/account');
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link')).toHaveText([
      'Wallet',
      'Buy',
      'Recurring buys',
      'Price alerts',
      'Withdraw',
      'Account',
      'Security log',
      'Logout',
    ]);
    await drawer.getByRole('link', { name: 'Logout' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the signed-in shell has no serious or critical axe-core violation', async ({ page }) => {
    await openSignedIn(page, await existingUser('mobile-axe'), '/user/account');
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
