/** The page's first stop for the keyboard: past the header and menus, straight to the page's content. */
export function SkipLink() {
  return (
    <a
      href={`#${mainContentId}`}
      className="bg-primary text-primary-foreground sr-only z-50 rounded-md px-4 py-2 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}

/** The id of each shell's `<main>`, the skip link's target; it takes focus (tabIndex -1) when skipped to. */
export const mainContentId = 'main';
