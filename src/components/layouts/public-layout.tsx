import type { ReactNode } from 'react';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import { mainContentId, SkipLink } from './skip-link';

/** The public pages' shell: navigation bar (`signedIn`: with the signed-in person's links), the page, footer. */
export function PublicLayout({ signedIn, children }: { signedIn?: boolean; children: ReactNode }) {
  return (
    <div className="bg-background text-foreground flex min-h-screen flex-col">
      <SkipLink />
      <PublicHeader signedIn={signedIn} />
      <main id={mainContentId} tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
