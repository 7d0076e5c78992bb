import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** axe-core's serious and critical findings on the page as it is now, one readable line each. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * axe-core's serious and critical findings in the light and then the dark theme (the system's setting,
 * which the app follows while nobody picked a theme), each line prefixed with its theme.
 */
export async function seriousAccessibilityViolationsInBothThemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  // Colours ease into the new theme (`transition-colors`); axe must measure where they end, not midway.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(
      (dark) => document.documentElement.classList.contains('dark') === dark,
      colorScheme === 'dark',
    );
    found.push(...(await seriousAccessibilityViolations(page)).map((line) => `${colorScheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}
