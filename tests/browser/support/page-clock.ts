import { expect, type Page } from '@playwright/test';

/**
 * Moves the page's clock (installed with `page.clock.install()`) on a second at a time until `expectation`
 * holds: what the app does after its own timers (supabase-js trying a lost connection again 1, 2 and 4 s
 * apart, a failed read tried again after 10 s) is seen without waiting for them in real time.
 */
export function aSecondAtATimeUntil(page: Page, expectation: () => Promise<void>): Promise<void> {
  return expect(async () => {
    await page.clock.runFor(1_000);
    await expectation();
  }).toPass({ intervals: [100] });
}
