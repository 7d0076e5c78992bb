import type { ReactNode } from 'react';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import { mainContentId, SkipLink } from './skip-link';

/**
 * The public pages' shell: navigation bar (`signedIn`: with the signed-in person's links), the page, footer. The
 * page fills at least the screen below the bar, so the footer starts below the fold: a page whose content grows as
 * it loads (the log-in form after the session check, the market table) moves nothing a person sees (Lighthouse
 * measured 0.12 CLS on /signup).
 */
export function PublicLayout({ signedIn, children }: { signedIn?: boolean; children: ReactNode }) {
  return (
    <div className="bg-background text-foreground flex min-h-screen flex-col">
      <SkipLink />
      <PublicHeader signedIn={signedIn} />
      <main id={mainContentId} tabIndex={-1} className="min-h-[calc(100svh-4rem)] flex-1 outline-none">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
