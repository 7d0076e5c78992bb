import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type Impact = 'moderate' | 'serious';
const impactsFrom: Record<Impact, readonly string[]> = {
  moderate: ['moderate', 'serious', 'critical'],
  serious: ['serious', 'critical'],
};

/** axe-core's serious and critical findings on the page as it is now, one readable line each. */
export function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  return accessibilityViolations(page, 'serious');
}

/** axe-core's findings of at least the given impact on the page as it is now, one readable line each. */
export async function accessibilityViolations(page: Page, least: Impact): Promise<string[]> {
  // The app has no frames, so axe runs in the page itself (legacy mode) rather than once per frame and then
  // again in a new blank page that gathers the frames' results: 0.6 CPU-s a run instead of 1.4. A frame
  // would go unchecked in legacy mode, so one found stops the test.
  if (page.frames().length > 1) throw new Error(`axe runs in the top frame only: ${page.url()} has frames`);
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return violations
    .filter((violation) => impactsFrom[least].includes(violation.impact ?? ''))
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * axe-core's serious and critical findings in the light and then the dark theme (the system's setting,
 * which the app follows while nobody picked a theme), each line prefixed with its theme.
 */
export function seriousAccessibilityViolationsInBothThemes(page: Page): Promise<string[]> {
  return accessibilityViolationsInBothThemes(page, 'serious');
}

/** axe-core's findings of at least the given impact in the light and then the dark theme, as above. */
export async function accessibilityViolationsInBothThemes(page: Page, least: Impact): Promise<string[]> {
  const found: string[] = [];
  // Colours ease into the new theme (`transition-colors`); axe must measure where they end, not midway.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(
      (dark) => document.documentElement.classList.contains('dark') === dark,
      colorScheme === 'dark',
    );
    found.push(...(await accessibilityViolations(page, least)).map((line) => `${colorScheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}
