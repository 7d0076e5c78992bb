import { MenuIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button, buttonVariants } from '@/components/ui/button';
import { company } from '@/config/company';
import { cn } from '@/lib/utils';
import { BrandMark } from './brand-mark';

const signedOutLinks = [
  { to: '/login', label: 'Login', variant: 'ghost' },
  { to: '/signup', label: 'Sign Up', variant: 'default' },
] as const;
/** The signed-in shell's top-bar links, for a public page a signed-in person is on (a reset link's). */
const signedInLinks = [
  { to: '/user/account', label: 'Account', variant: 'ghost' },
  { to: '/logout', label: 'Logout', variant: 'default' },
] as const;

/**
 * The public navigation bar: brand, Login, Sign Up (or Account, Logout for someone `signedIn`); on small
 * screens behind a menu button.
 */
export function PublicHeader({ signedIn = false }: { signedIn?: boolean }) {
  const links = signedIn ? signedInLinks : signedOutLinks;
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  return (
    <header className="bg-background/85 supports-[backdrop-filter]:bg-background/70 sticky top-0 z-40 border-b backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6"
      >
        <Link
          to="/"
          onClick={closeMenu}
          className="focus-visible:ring-ring flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight focus-visible:ring-2 focus-visible:outline-none"
        >
          <BrandMark className="size-8" />
          {company.name}
        </Link>

        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <ul className="hidden items-center gap-2 sm:flex">
            {links.map(({ to, label, variant }) => (
              <li key={to}>
                <Link to={to} className={buttonVariants({ variant })}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>

          <Button
            variant="ghost"
            size="icon"
            className="sm:hidden"
            aria-expanded={menuOpen}
            aria-controls="public-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <XIcon aria-hidden /> : <MenuIcon aria-hidden />}
          </Button>
        </div>
      </nav>

      {menuOpen && (
        <ul id="public-menu" className="flex flex-col gap-2 border-t px-4 py-3 sm:hidden">
          {links.map(({ to, label, variant }) => (
            <li key={to}>
              <Link
                to={to}
                onClick={closeMenu}
                className={cn(
                  buttonVariants({ variant: variant === 'ghost' ? 'outline' : variant }),
                  'w-full',
                )}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}
