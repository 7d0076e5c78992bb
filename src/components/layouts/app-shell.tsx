import { MenuIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { company } from '@/config/company';
import { cn } from '@/lib/utils';
import { AppShellNav, type NavGroup } from './app-shell-nav';
import { BrandMark } from './brand-mark';
import { mainContentId, SkipLink } from './skip-link';

// Narrower padding on a phone: at 360 px wide the bell, theme, Account and Logout fit beside the menu and mark.
const topBarTargetClass =
  'hover:bg-accent hover:text-accent-foreground focus-visible:ring-ring inline-flex h-10 items-center rounded-md px-2 focus-visible:ring-2 focus-visible:outline-none sm:px-3';
const topBarLinkClass = cn(topBarTargetClass, 'text-sm font-medium');

/**
 * The signed-in shell: top bar (brand, Account, Logout), the side menu and the page. On small screens the
 * side menu hides behind a toggle and opens over a backdrop; Escape, the close button, the backdrop or
 * choosing a link closes it.
 */
export function AppShell({
  navGroups,
  topBarActions,
  children,
}: {
  navGroups: NavGroup[];
  /** The area's own controls at the start of the top bar's account links (the notification bell). */
  topBarActions?: ReactNode;
  children: ReactNode;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
      <div className="bg-background text-foreground flex min-h-screen flex-col">
        <SkipLink />
        <header className="bg-card sticky top-0 z-40 flex h-14 items-center gap-2 border-b px-3 md:px-6 print:hidden">
          <SheetTrigger asChild>
            <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
              <MenuIcon aria-hidden />
            </Button>
          </SheetTrigger>
          <Link
            to="/dashboard"
            className={cn(topBarTargetClass, 'gap-2 text-lg font-semibold tracking-tight')}
          >
            <BrandMark className="size-7" />
            {/* On a phone the mark alone: the name would push Account and Logout past the screen's edge. */}
            <span className="sr-only sm:not-sr-only">{company.name}</span>
          </Link>
          <nav aria-label="Account" className="ml-auto flex items-center gap-1">
            {topBarActions}
            <ThemeToggle />
            <Link to="/user/account" className={topBarLinkClass}>
              Account
            </Link>
            <Link to="/logout" className={topBarLinkClass}>
              Logout
            </Link>
          </nav>
        </header>
        <div className="flex flex-1">
          <aside className="bg-card sticky top-14 hidden h-[calc(100vh-3.5rem)] w-64 shrink-0 border-r md:block print:hidden">
            <AppShellNav groups={navGroups} />
          </aside>
          <SheetContent aria-describedby={undefined}>
            <SheetTitle className="px-4 pt-4 text-lg font-semibold">Menu</SheetTitle>
            <AppShellNav groups={navGroups} onNavigate={() => setMenuOpen(false)} />
          </SheetContent>
          <main id={mainContentId} tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-8">
            {children}
          </main>
        </div>
      </div>
    </Sheet>
  );
}
