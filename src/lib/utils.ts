import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names without merging them: tailwind-merge would cost 8.4 KiB gzip of the 100 KiB first-load
 * budget (bench/landing-bundle). Components offer variants and props instead of letting callers override
 * their classes; in development and tests tailwind-merge checks that no call relies on merging.
 */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  if (import.meta.env.DEV) reportOverriddenClasses(classes);
  return classes;
}

/** Throws in tests, logs elsewhere, when tailwind-merge would drop a class (a conflict or a duplicate). */
function reportOverriddenClasses(classes: string) {
  const kept = twMerge(classes).split(' ');
  const overridden = classes
    .split(/\s+/)
    .filter(Boolean)
    .filter((name) => {
      const index = kept.indexOf(name);
      if (index !== -1) kept.splice(index, 1);
      return index === -1;
    });
  if (overridden.length === 0) return;
  const message =
    `cn("${classes}"): later classes override "${overridden.join(' ')}", but cn does not merge, so both ` +
    'apply and the stylesheet order decides. Give the component a variant or prop for this instead of ' +
    'overriding its own classes.';
  if (import.meta.env.MODE === 'test') throw new Error(message);
  console.error(message);
}

/**
 * For a container of a page's panels: each child is styled and laid out only once near the screen
 * (`content-visibility: auto`), keeping its last height (24rem before its first) meanwhile; only the
 * height, as a width would hold a narrow screen open sideways. A phone shows the first two or three of
 * the wallet's dozen panels; the rest no longer lengthen each update's style and layout while the page
 * loads (the limits notice's opening: ~130 → ~90 ms at 4 × CPU).
 */
export const panelsDrawnNearScreen =
  '*:[content-visibility:auto] *:[contain-intrinsic-block-size:auto_24rem]';
