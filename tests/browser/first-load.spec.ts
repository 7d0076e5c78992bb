import { expect, test, type Page } from '@playwright/test';
import { existingUser, logIn } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';

// Log-in lands in the wallet, whose limits notice (a modal) is not what these tests are about.
test.beforeEach(async ({ page }) => skipLimitsNotices(page));

/**
 * The first load of a page other than the landing page: its code is asked for while the app's entry script
 * is still on its way (not one round trip after it has run), and a page for people who are not signed in
 * paints without waiting for the session check.
 */

/** A chunk's name: its file name without Vite's 8-character content hash. */
const chunkName = (url: string) => /\/assets\/([\w.-]+?)-[\w-]{8}\.js$/.exec(new URL(url).pathname)?.[1];

/** The app's entry script. */
const entryScript = /\/assets\/index-[\w-]{8}\.js$/;

/**
 * Opens `path` with the answer for `held` kept back until each chunk of `names` has been asked for (10 s at
 * most), and returns those asked for meanwhile.
 */
async function askedForWhileHeld(page: Page, path: string, held: RegExp, names: string[]): Promise<string[]> {
  const asked = new Set<string>();
  page.on('request', (request) => {
    const name = chunkName(request.url());
    if (name && names.includes(name)) asked.add(name);
  });
  let release: (asked: string[]) => void = () => {};
  const askedWhileHeld = new Promise<string[]>((resolve) => (release = resolve));
  await page.route(held, async (route) => {
    await expect
      .poll(() => asked.size, { timeout: 10_000 })
      .toBe(names.length)
      .catch(() => {});
    release([...asked].sort());
    await route.continue();
  });
  await page.goto(path);
  return askedWhileHeld;
}

for (const [path, names, heading] of [
  // Each page's own module is in its first-load chunk (vite.config.ts), the server-data scope in the cache's.
  ['/login', ['server-state', 'sign-in-pages'], 'Log in'],
  ['/signup', ['server-state', 'sign-in-pages'], 'Create your account'],
  // A visitor is then sent to /login, but the area's and the page's code were asked for first.
  ['/user/wallet', ['user-area'], 'Log in'],
] as const) {
  test(`opening ${path}, the browser asks for the page's code while the app's entry script still loads`, async ({
    page,
  }) => {
    expect(await askedForWhileHeld(page, path, entryScript, [...names])).toEqual(names);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  });
}

/** The wallet's page, and the files its first load fetches beside the entry script (the build's list). */
async function walletFirstLoad(page: Page) {
  const html = await (await page.request.get('/user/wallet')).text();
  const list = /<script type="application\/json" id="route-chunks">([^<]*)<\/script>/.exec(html)?.[1];
  const { files, routes, session } = JSON.parse(list ?? 'null') as {
    files: string[];
    routes: Record<string, number[]>;
    session: number[];
  };
  const wanted = new Set([...(routes['/user'] ?? []), ...(routes['/user/wallet'] ?? []), ...session]);
  const entry = /<script type="module"[^>]* src="\/([^"]+)"/.exec(html)?.[1];
  return { entry, names: [...wanted].map((index) => files[index] ?? ''), files };
}

test('a signed-in person’s wallet needs at most six files beside the entry: one per connection', async ({
  page,
}) => {
  // A browser opens six connections to a server without HTTP/2; a seventh file waits for one to be free.
  const { names } = await walletFirstLoad(page);
  expect(names).toContainEqual(expect.stringMatching(/user-area-/));
  expect(names.length, names.join(', ')).toBeLessThanOrEqual(6);
});

test('the wallet’s first-load files have Chrome compile them as they arrive; a page not opened stays lazy', async ({
  page,
}) => {
  const hint = '//# allFunctionsCalledOnLoad\n';
  const { entry, names, files } = await walletFirstLoad(page);
  for (const file of [entry, ...names]) {
    expect((await (await page.request.get(`/${file}`)).text()).startsWith(hint), file).toBe(true);
  }
  const adminPage = files.find((file) => /\/queue-page-/.test(file));
  expect(adminPage).toBeDefined();
  expect((await (await page.request.get(`/${adminPage}`)).text()).startsWith(hint)).toBe(false);
});

test('a signed-in person’s stored session is read while their page’s code still loads', async ({ page }) => {
  await logIn(page, await existingUser('early-session'));
  // The wallet page's code (its route module is in the user area's chunk) is held back; the session's is not.
  const walletPage = /\/assets\/user-area-[\w-]{8}\.js$/;
  expect(await askedForWhileHeld(page, '/user/wallet', walletPage, ['session-client'])).toEqual([
    'session-client',
  ]);
  await expect(page.getByRole('heading', { name: 'Your Wallet', level: 1 })).toBeVisible();
});

test('a signed-in person’s wallet shows and reads its data while their role is still being read', async ({
  page,
}) => {
  await logIn(page, await existingUser('role-beside-reads'));
  let releaseRole = () => {};
  const roleHeld = new Promise<void>((resolve) => (releaseRole = resolve));
  await page.route(/\/rest\/v1\/profiles\?select=role&/, async (route) => {
    await roleHeld;
    await route.continue();
  });
  const balanceAnswered = page.waitForResponse(/\/rest\/v1\/wallet_balances\?/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Wallet', level: 1 })).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toBeVisible();
  expect((await balanceAnswered).ok()).toBe(true);
  releaseRole();
  // The role's answer changes nothing for a person: the page stays.
  await page.getByRole('link', { name: 'Buy' }).first().click();
  await expect(page.getByRole('heading', { name: 'Buy Cryptocurrency', level: 1 })).toBeVisible();
});

test('the landing page asks for no page code ahead, only its dashboard preview', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || request.resourceType() === 'image')
      asked.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  // The preview's request may reach the test after the heading shows: it is awaited, not read at once.
  await expect.poll(() => asked).toContain('/dashboard-preview.png');
  expect(asked.filter((name) => /\/assets\/(login|signup|layout|wallet|query-scope)-/.test(name))).toEqual(
    [],
  );
});

for (const [path, heading] of [
  ['/login', 'Log in'],
  ['/signup', 'Create your account'],
] as const) {
  test(`a visitor sees the ${path} form without waiting for the session check or the Supabase client`, async ({
    page,
  }) => {
    // The session check's code and supabase-js never arrive: a visitor with no stored session has nothing to
    // wait for, and the form needs the client only once it is sent.
    await page.route(/\/assets\/session-client-[\w-]{8}\.js$/, () => {});
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
  });
}

for (const [path, heading] of [
  ['/login', 'Log in'],
  ['/signup', 'Create your account'],
] as const) {
  test(`a visitor's ${path} asks for the Supabase client only after its first paint`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    // It still arrives: the form sends through the client. (The toaster comes in a chunk the form needs.)
    await page.waitForFunction(() =>
      performance
        .getEntriesByType('resource')
        .some((entry) => entry.name.includes('/assets/session-client-')),
    );
    const { firstPaint, asked } = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      asked: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/assets/session-client-'))
        .map((entry) => entry.startTime),
    }));
    expect(asked).toHaveLength(1);
    for (const startTime of asked) expect(startTime).toBeGreaterThan(firstPaint);
  });
}
