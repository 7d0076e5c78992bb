import type { Page } from '@playwright/test';

/**
 * Every table box on the page whose content is wider than the box, with how many pixels it runs over,
 * and the page itself when it does: empty when nothing scrolls sideways.
 */
export const sidewaysScrolling = (page: Page) =>
  page.evaluate(() => {
    const over: string[] = [];
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth > clientWidth) over.push(`the page by ${scrollWidth - clientWidth} px`);
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const box = table.parentElement ?? table;
      if (box.scrollWidth > box.clientWidth)
        over.push(
          `${table.getAttribute('aria-label') ?? 'a table'} by ${box.scrollWidth - box.clientWidth} px`,
        );
    }
    return over;
  });
