import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Follows a link as a person does, and returns once the next page shows its heading. The address changes
 * at the click, but the previous page stays on screen (and takes typing) while the next page's code loads,
 * so a changed URL alone does not mean the next page is there.
 */
export async function followLink(link: Locator, page: Page, heading: string): Promise<void> {
  await link.click();
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

/**
 * Opens a page of the signed-in area through its side menu, by the entry's label (an admin queue's entry
 * also reads its pending count: "Buy requests 3 pending").
 */
export async function openFromMenu(page: Page, label: string, heading: string): Promise<void> {
  const name = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s+\\d+ pending)?$`);
  await followLink(
    page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name }),
    page,
    heading,
  );
}

/**
 * Shows `path` in the running app as its own links do (a new history entry the router follows), without
 * loading the app again, and returns the page's level-1 heading once shown. For a test whose subject is a
 * page as shown, not its load: each load parses and starts the whole app again.
 */
export async function showInApp(page: Page, path: string, heading?: string | RegExp): Promise<Locator> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
  const title = page.getByRole('heading', { name: heading, level: 1 });
  await expect(title).toBeVisible();
  return title;
}
