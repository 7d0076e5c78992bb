import { expect, test, type Page } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { seededAccounts } from '../../supabase/seed-accounts';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { seriousAccessibilityViolations } from './support/accessibility';
import {
  apiUrl,
  type Account,
  credentialsWork,
  enterTotpCode,
  existingUser,
  existingUserWithTotp,
  fillLogin,
  liveSessionsOf,
  logIn,
  mailTo,
  newAccount,
  toast,
  walletCodeOf,
} from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { followLink } from './support/navigation';

// Log-in lands in the wallet, whose limits notice (a modal) is not what these tests are about.
test.beforeEach(async ({ page }) => skipLimitsNotices(page));

test.describe('sign-up', () => {
  test('a visitor signs up, sees the wallet code the database made, and lands in the wallet', async ({
    page,
  }) => {
    const account = newAccount('signup');
    await page.goto('/signup');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm password').fill(account.password);
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expect(page).toHaveURL(/\/user\/wallet$/);
    // Read while it shows (a toast lasts seconds); then compared with the code the database holds.
    const welcome = toast(page, 'Signup successful! Your wallet code is: ');
    await expect(welcome).toBeVisible();
    const shown = await welcome.textContent();
    const walletCode = await walletCodeOf(account);
    expect(walletCode).toMatch(/^bc1[a-z0-9]{39,59}$/);
    expect(shown).toContain(`Signup successful! Your wallet code is: ${walletCode}`);
  });

  test('an e-mail that already has an account gets a clear message and no second account', async ({
    page,
  }) => {
    const account = await existingUser('taken');
    await page.goto('/signup');
    await page.getByLabel('Full name').fill('Someone Else');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('other-pass-456');
    await page.getByLabel('Confirm password').fill('other-pass-456');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expect(toast(page, 'An account with this email already exists.')).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
    expect(await credentialsWork({ email: account.email, password: 'other-pass-456' })).toBe(false);
  });

  test('can be completed with the keyboard alone', async ({ page }) => {
    const account = newAccount('keyboard');
    await page.goto('/signup');
    await page.getByLabel('Full name').focus();
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.password);
    await page.keyboard.press('Tab'); // the show/hide toggle
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/user\/wallet$/);
  });
});

test.describe('sign-up with e-mail confirmations on, as hosted projects start', () => {
  // A second gateway over the same database with confirmations on; the page's sign-up goes to it, so
  // the confirmation mail (and the link's /verify) come from it, and the code exchange from the app's own.
  let confirming: RunningGateway;
  test.beforeAll(async () => {
    confirming = await startGateway({
      databaseUrl: process.env.DATABASE_URL ?? '',
      jwtSecret: localDefaults.jwtSecret,
      anonKey: localDefaults.anonKey,
      serviceRoleKey: localDefaults.serviceRoleKey,
      project: { enableConfirmations: true },
    });
  });
  test.afterAll(() => confirming.stop());

  test('the person is told to confirm, and the mailed link lands them in the wallet with their wallet code', async ({
    page,
  }) => {
    await page.route(`${apiUrl()}/auth/v1/signup**`, async (route) => {
      const response = await route.fetch({ url: route.request().url().replace(apiUrl(), confirming.url) });
      await route.fulfill({ response });
    });
    const account = newAccount('confirm');
    await page.goto('/signup');
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm password').fill(account.password);
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expect(
      toast(
        page,
        'Signup successful! Please confirm your email address: the link we sent you opens your wallet.',
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await credentialsWork(account)).toBe(false);

    const [mail] = confirming.mailbox.list(account.email);
    expect(mail?.subject).toBe('Confirm your email address');
    expect(new URL(mail?.links[0] ?? '').searchParams.get('token')).toMatch(/^pkce_/);
    await page.goto(mail?.links[0] ?? '');
    await expect(page).toHaveURL(/\/user\/wallet$/);
    const welcome = toast(page, 'Signup successful! Your wallet code is: ');
    await expect(welcome).toBeVisible();
    const shown = await welcome.textContent();
    expect(shown).toContain(`Signup successful! Your wallet code is: ${await walletCodeOf(account)}`);
  });
});

test.describe('log-in and log-out', () => {
  test('the seeded user logs in with a toast and lands in the wallet, then logs out from the menu', async ({
    page,
  }) => {
    await page.goto('/login');
    await fillLogin(page, seededAccounts.user);
    await expect(toast(page, 'Login successful')).toBeVisible();
    await expect(page).toHaveURL(/\/user\/wallet$/);

    await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Logout' }).click();
    await expect(toast(page, 'Logged out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/user/wallet');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a failed log-out says so and keeps the person signed in', async ({ page }) => {
    await logIn(page, await existingUser('logout-fails'));
    // The network drops just as the log-out is sent.
    await page.route('**/auth/v1/logout**', (route) => route.abort('internetdisconnected'));
    await page.goto('/logout');
    await expect(toast(page, 'Logout failed. Please try again.')).toBeVisible();
    await expect(page).toHaveURL(/\/user\/wallet$/);
  });

  test('a wrong password is refused with the specification message and no session', async ({ page }) => {
    await page.goto('/login');
    await fillLogin(page, { email: seededAccounts.user.email, password: 'not-the-password' });
    await expect(toast(page, 'Login failed. Please check your credentials.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a lost connection is reported as such, not as wrong credentials', async ({ page }) => {
    await page.goto('/login');
    // The network drops between the browser and the server (fault injection, not a fake answer).
    await page.route('**/auth/v1/token**', (route) => route.abort('internetdisconnected'));
    await fillLogin(page, seededAccounts.user);
    await expect(
      toast(page, 'Cannot reach the server. Please check your internet connection and try again.'),
    ).toBeVisible();
    await expect(toast(page, 'Login failed. Please check your credentials.')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('returns to the page that asked for the log-in', async ({ page }) => {
    const account = await existingUser('return');
    await page.goto('/user/account');
    await expect(page).toHaveURL(/\/login$/);
    await fillLogin(page, account);
    await expect(page).toHaveURL(/\/user\/account$/);
    await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
  });

  test('the session survives a reload', async ({ page }) => {
    const account = await existingUser('reload');
    await logIn(page, account);
    await page.goto('/user/account');
    await page.reload();
    await expect(page).toHaveURL(/\/user\/account$/);
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  });

  test('can be done with the keyboard alone', async ({ page }) => {
    const account = await existingUser('keyboard-login');
    await page.goto('/login');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(account.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/user\/wallet$/);
  });
});

test.describe('password reset', () => {
  test('the e-mailed link lets the person choose a new password, and it works for logging in', async ({
    page,
  }) => {
    const account = await existingUser('reset');
    await page.goto('/login');
    await followLink(page.getByRole('link', { name: 'Forgot your password?' }), page, 'Reset your password');
    await expect(page).toHaveURL(/\/reset-password$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(toast(page, 'Password reset email sent. Please check your inbox.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    const [mail] = await mailTo(account.email);
    expect(mail?.subject).toBe('Reset your password');
    // PKCE: the link carries no session; its redirect's ?code= is exchanged by this browser's verifier.
    expect(new URL(mail?.links[0] ?? '').searchParams.get('token')).toMatch(/^pkce_/);
    await page.goto(mail?.links[0] ?? '');
    await expect(page).toHaveURL(/\/update-password$/);
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    // The link signed the person in, and the header says so.
    const header = page.getByRole('navigation', { name: 'Main' });
    await expect(header.getByRole('link', { name: 'Account' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Logout' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Login' })).toHaveCount(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Sign-up's rules: six letters are refused, as is a confirmation that differs.
    await page.getByLabel('New password', { exact: true }).fill('abcdef');
    await page.getByLabel('Confirm new password').fill('abcdeg');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Password must be at least 8 characters long' }),
    ).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'New passwords do not match' })).toBeVisible();
    expect(await credentialsWork(account)).toBe(true);

    // GoTrue's refusal of the old password again, in plain words under the field.
    await page.getByLabel('New password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm new password').fill(account.password);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Your new password must be different from your old one.' }),
    ).toBeVisible();

    const newPassword = 'after-reset-789';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();

    await expect(toast(page, 'Password updated successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/user\/wallet$/);
    expect(await credentialsWork(account)).toBe(false);

    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await logIn(page, { email: account.email, password: newPassword });
  });

  /** Asks for a reset link on the reset page; the link the mailbox then holds. */
  async function requestResetLink(page: Page, account: Account): Promise<string> {
    await page.goto('/reset-password');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(toast(page, 'Password reset email sent. Please check your inbox.')).toBeVisible();
    const [mail] = await mailTo(account.email);
    return mail?.links[0] ?? '';
  }

  // supabase/auth internal/api/user.go (PR 1766) and issue 2091: a factor holder's password changes at aal2.
  test('a person with two-factor authentication enters their code before choosing the new password', async ({
    page,
  }) => {
    const account = await existingUserWithTotp('reset-two-factor');
    await page.goto(await requestResetLink(page, account));

    await expect(page.getByRole('heading', { name: 'Enter your authentication code' })).toBeVisible();
    await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
    await enterTotpCode(page, account.totpSecret);

    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    const newPassword = 'after-code-reset-789';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(toast(page, 'Password updated successfully')).toBeVisible();
    expect(await credentialsWork({ email: account.email, password: newPassword })).toBe(true);
  });

  /**
   * The link as the recovery template `{{ .SiteURL }}/update-password?token_hash={{ .TokenHash }}&type=recovery`
   * renders it: the local Auth's `{{ .TokenHash }}` is the token its own link carries (what `POST /verify`
   * takes as `token_hash`, as GoTrue's link carries its stored hash).
   */
  function tokenHashLink(siteUrl: string | undefined, authLink: string): string {
    const tokenHash = new URL(authLink).searchParams.get('token') ?? '';
    return `${siteUrl}/update-password?${new URLSearchParams({ token_hash: tokenHash, type: 'recovery' })}`;
  }

  test('a reset link opened on another device (token_hash) lets the person set a password and log in with it', async ({
    page,
    browser,
    baseURL,
  }) => {
    const account = await existingUser('other-device');
    const authLink = await requestResetLink(page, account);

    // The phone: its own browser, with no storage (and so no PKCE verifier) from the one that asked.
    const phone = await browser.newContext();
    const phonePage = await phone.newPage();
    await skipLimitsNotices(phonePage);
    await phonePage.goto(tokenHashLink(baseURL, authLink));
    await expect(phonePage.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    // The used token leaves the address, so a reload or the back button does not present it again.
    await expect(phonePage).toHaveURL(/\/update-password$/);
    const newPassword = 'from-the-phone-789';
    await phonePage.getByLabel('New password', { exact: true }).fill(newPassword);
    await phonePage.getByLabel('Confirm new password').fill(newPassword);
    await phonePage.getByRole('button', { name: 'Update password' }).click();
    await expect(toast(phonePage, 'Password updated successfully')).toBeVisible();
    await expect(phonePage).toHaveURL(/\/user\/wallet$/);
    await phone.close();

    // Back in the browser that asked, the new password logs in; the old one no longer does.
    await logIn(page, { email: account.email, password: newPassword });
    expect(await credentialsWork(account)).toBe(false);
  });

  test('a token_hash link used once says it has expired the second time', async ({
    page,
    browser,
    baseURL,
  }) => {
    const account = await existingUser('token-hash-reuse');
    const link = tokenHashLink(baseURL, await requestResetLink(page, account));
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();

    const elsewhere = await browser.newPage();
    await elsewhere.goto(link);
    await expect(elsewhere.getByRole('heading', { name: 'Reset link expired' })).toBeVisible();
    await expect(elsewhere.getByLabel('New password', { exact: true })).toHaveCount(0);
    await elsewhere.close();
  });

  test('a used or broken link says it has expired and offers a new one', async ({ page }) => {
    await page.goto('/update-password#error=access_denied&error_code=otp_expired&error_description=expired');
    await expect(page.getByRole('heading', { name: 'Reset link expired' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Send a new reset link' })).toHaveAttribute(
      'href',
      '/reset-password',
    );
  });

  test('a password log-in cannot set a new password there without the current one', async ({ page }) => {
    await logIn(page, await existingUser('no-link'));
    await page.goto('/update-password');
    await expect(page.getByRole('heading', { name: 'Open your reset link' })).toBeVisible();
    await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Change password in Account' })).toHaveAttribute(
      'href',
      '/user/account',
    );
  });
});

test.describe('change password', () => {
  test('Auth checks the current password before setting the new one, and leaves one session: this one', async ({
    page,
  }) => {
    const account = await existingUser('change');
    await logIn(page, account);
    await page.goto('/user/account');

    // A refused change (the same password again) changes no session.
    const sessionsBefore = await liveSessionsOf(account.email);
    await page.getByLabel('Current password').fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm new password').fill(account.password);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(toast(page, 'Failed to update password')).toBeVisible();
    expect(await liveSessionsOf(account.email)).toBe(sessionsBefore);

    const newPassword = 'changed-pass-456';
    await page.getByLabel('Current password').fill('a-wrong-guess');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    // The first refusal's toast may still be showing: this one says why.
    await expect(
      toast(page, 'Failed to update password').filter({ hasText: 'Your current password is incorrect.' }),
    ).toBeVisible();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Your current password is incorrect.' }),
    ).toBeVisible();
    expect(await credentialsWork(account)).toBe(true);

    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(toast(page, 'Password updated successfully')).toBeVisible();
    await expect(page.getByLabel('New password', { exact: true })).toHaveValue('');
    // The earlier sessions (the sign-up's) are gone; this browser stays in.
    expect(await liveSessionsOf(account.email)).toBe(1);
    await page.reload();
    await expect(page.getByLabel('Current password')).toBeVisible();
    expect(await credentialsWork(account)).toBe(false);
    expect(await credentialsWork({ email: account.email, password: newPassword })).toBe(true);
  });
});

test.describe('accessibility of the account pages', () => {
  for (const path of ['/login', '/signup', '/reset-password', '/update-password']) {
    test(`${path} has no serious or critical axe-core violation, also with its errors showing`, async ({
      page,
    }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const submit = page.locator('form button[type="submit"]');
      if ((await submit.count()) > 0) {
        await submit.click();
        await expect(page.getByRole('alert').first()).toBeVisible();
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
      }
    });
  }

  test('/user/account in the signed-in shell has no serious or critical axe-core violation', async ({
    page,
  }) => {
    await logIn(page, await existingUser('axe-account'));
    await page.goto('/user/account');
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
