import { memo, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { PermissionDenied } from '@/components/guards/permission-denied';
import { RedirectToLogin } from '@/components/guards/redirect-to-login';
import { SessionPending } from '@/components/guards/session-pending';
import { SignedOutOnly } from '@/components/guards/signed-out-only';
import { usePageTitle } from '@/lib/page-title';
import { afterDelayWhenIdle } from '@/lib/when-idle';
import { useAuth, type AuthState } from '@/lib/auth';
import { lazyPage, type LazyPage, type PageModule } from './lazy-page';
import LandingRoute from './routes/landing';
import PublicLayoutRoute from './routes/public-layout';
import SessionAwarePublicLayoutRoute from './routes/session-aware-public-layout';

/*
 * Declarative routes rather than a data router: no page has a loader or an action, and the data
 * router's state machine alone weighed 16 KiB gzip of a visitor's first load (bench/landing-bundle).
 * Each page below is its own chunk, so a visitor's landing page loads only what it shows. A route module's
 * place under routes/ is its address for the build's list of each page's chunks (vite.config.ts), which
 * the browser fetches while the entry script loads: an area's `<area>/layout` and `<area>/<page>`, and
 * `<page>` or `auth/<page>` for the rest.
 */

/**
 * A page (or area layout) that reads or writes server data: it renders inside the app's one TanStack
 * Query cache, whose code loads together with the page's, never with the public pages.
 */
function serverDataPage(load: () => Promise<PageModule>): LazyPage {
  return lazyPage(async () => {
    const [{ default: Page }, { QueryScope }] = await Promise.all([load(), import('@/lib/query-scope')]);
    return {
      default: function ServerDataPage() {
        return (
          <QueryScope>
            <Page />
          </QueryScope>
        );
      },
    };
  });
}

interface PageEntry {
  /** The browser tab's title (and what a screen reader announces on arrival). */
  title: string;
  Page: LazyPage;
  /** Only for people who are not signed in: a signed-in person goes on to their area. */
  signedOutOnly?: boolean;
}
type PagesByPath = Record<string, PageEntry>;

const landingTitle = 'Track, analyse and buy cryptocurrency';

/** Pages inside the public shell (header and footer), by path. */
const publicShellPages: PagesByPath = {
  'terms-of-service': {
    title: 'Terms of Service',
    Page: lazyPage(() => import('./routes/terms-of-service')),
  },
  'privacy-policy': { title: 'Privacy Policy', Page: lazyPage(() => import('./routes/privacy-policy')) },
  disclaimer: { title: 'Disclaimer', Page: lazyPage(() => import('./routes/disclaimer')) },
  login: { title: 'Log in', Page: serverDataPage(() => import('./routes/auth/login')), signedOutOnly: true },
  signup: {
    title: 'Sign up',
    Page: serverDataPage(() => import('./routes/auth/signup')),
    signedOutOnly: true,
  },
  'reset-password': {
    title: 'Reset your password',
    Page: serverDataPage(() => import('./routes/auth/reset-password')),
  },
  'confirm-signup': {
    title: 'Confirm your e-mail',
    Page: serverDataPage(() => import('./routes/auth/confirm-signup')),
  },
  'not-me': { title: 'Lock your withdrawals', Page: serverDataPage(() => import('./routes/not-me')) },
  'address-book/cancel': {
    title: 'Cancel a payout destination',
    Page: serverDataPage(() => import('./routes/cancel-destination')),
  },
  proof: { title: 'Proof of liabilities', Page: serverDataPage(() => import('./routes/proof')) },
};
/** Pages inside the public shell that a person reaches signed in, so its bar shows them signed in. */
const sessionAwarePublicShellPages: PagesByPath = {
  'update-password': {
    title: 'Choose a new password',
    Page: serverDataPage(() => import('./routes/auth/update-password')),
  },
};
/** Pages that only act and move on (log out, pick the area), by path. */
const passThroughPages: PagesByPath = {
  logout: { title: 'Logging out', Page: serverDataPage(() => import('./routes/auth/logout')) },
  dashboard: { title: 'Dashboard', Page: lazyPage(() => import('./routes/dashboard')) },
};
interface Area {
  layout: LazyPage;
  pages: PagesByPath;
  /** The page the area's bare path leads to. */
  home: string;
  /**
   * Who may enter. A visitor goes to /login and comes back after logging in; a signed-in person who may
   * not enter is told so (logging in again would only bring them back here).
   */
  admits: (auth: AuthState) => boolean;
  /**
   * Whether `admits` reads the person's role, so the area waits for it. One that needs only the session
   * shows as soon as the stored session is restored, its reads beside the role's and Auth's check (a
   * session Auth no longer knows is then signed out, and the person told why).
   */
  readsRole: boolean;
}

/** The signed-in areas: /user for signed-in people, /admin for admins only (spec §2). */
const areas: Record<string, Area> = {
  user: {
    layout: serverDataPage(() => import('./routes/user/layout')),
    pages: {
      wallet: { title: 'Your Wallet', Page: lazyPage(() => import('./routes/user/wallet')) },
      buy: { title: 'Buy Cryptocurrency', Page: lazyPage(() => import('./routes/user/buy')) },
      withdraw: { title: 'Withdraw Funds', Page: lazyPage(() => import('./routes/user/withdraw')) },
      account: { title: 'Account', Page: lazyPage(() => import('./routes/user/account')) },
      'security-log': {
        title: 'Security log',
        Page: lazyPage(() => import('./routes/user/security-log')),
      },
      statement: { title: 'Statement', Page: lazyPage(() => import('./routes/user/statement')) },
      gains: { title: 'Gains report', Page: lazyPage(() => import('./routes/user/gains')) },
      'price-alerts': { title: 'Price alerts', Page: lazyPage(() => import('./routes/user/price-alerts')) },
      'recurring-buys': {
        title: 'Recurring buys',
        Page: lazyPage(() => import('./routes/user/recurring-buys')),
      },
    },
    home: 'wallet',
    admits: ({ session }) => session !== null,
    readsRole: false,
  },
  admin: {
    layout: serverDataPage(() => import('./routes/admin/layout')),
    pages: {
      users: { title: 'Users · Admin', Page: lazyPage(() => import('./routes/admin/users')) },
      'users/:personId/security-log': {
        title: 'Security log · Admin',
        Page: lazyPage(() => import('./routes/admin/person-security-log')),
      },
      'frozen-accounts': {
        title: 'Frozen accounts · Admin',
        Page: lazyPage(() => import('./routes/admin/frozen-accounts')),
      },
      transactions: {
        title: 'Transactions · Admin',
        Page: lazyPage(() => import('./routes/admin/transactions')),
      },
      deposit: { title: 'Deposit · Admin', Page: lazyPage(() => import('./routes/admin/deposit')) },
      'status-types': {
        title: 'Status types · Admin',
        Page: lazyPage(() => import('./routes/admin/status-types')),
      },
      'buy-requests': {
        title: 'Buy requests · Admin',
        Page: lazyPage(() => import('./routes/admin/buy-requests')),
      },
      'sell-requests': {
        title: 'Sell requests · Admin',
        Page: lazyPage(() => import('./routes/admin/sell-requests')),
      },
      'withdraw-requests': {
        title: 'Withdraw requests · Admin',
        Page: lazyPage(() => import('./routes/admin/withdraw-requests')),
      },
      settings: { title: 'Settings · Admin', Page: lazyPage(() => import('./routes/admin/settings')) },
      'audit-log': { title: 'Audit log · Admin', Page: lazyPage(() => import('./routes/admin/audit-log')) },
      ledger: { title: 'Ledger · Admin', Page: lazyPage(() => import('./routes/admin/ledger')) },
    },
    home: 'users',
    admits: ({ isAdmin }) => isAdmin,
    readsRole: true,
  },
};

/**
 * Loads the code of the page at `pathname` (and its area's layout) at once, as a data router's lazy
 * routes do: the first render then waits for no chunk, layout and page never load one after the other.
 * Never rejects: a page that failed to load shows the error screen when rendered.
 */
export async function preloadPagesFor(pathname: string): Promise<void> {
  const [first = '', second] = pathname.split('/').filter(Boolean);
  const area = areas[first];
  const wanted = area
    ? [area.layout, area.pages[second ?? area.home]?.Page]
    : [(publicShellPages[first] ?? sessionAwarePublicShellPages[first] ?? passThroughPages[first])?.Page];
  await Promise.allSettled(wanted.map((page) => page?.preload()));
}

/**
 * How long an admitted area waits before loading its other pages: past the first page's data and
 * paint (whose first rows the admin-lists bench budgets), and still before a person picks from the menu.
 */
const AREA_PRELOAD_DELAY_MS = 1_500;

/**
 * An area behind its guard. Once someone is admitted, the code of the area's other pages loads while
 * they look at the first, so the side menu opens pages at once: the router keeps the previous page on
 * screen (and taking input) until the next page's code has arrived.
 */
function AreaRoute({
  path,
  area: { layout: Layout, pages, admits, readsRole },
}: {
  path: string;
  area: Area;
}) {
  const auth = useAuth();
  const pending = readsRole ? auth.isLoading : auth.isRestoring;
  const admitted = !pending && admits(auth);
  useEffect(() => {
    if (!admitted) return;
    return afterDelayWhenIdle(AREA_PRELOAD_DELAY_MS, () => {
      // A build's list fetches their code without running it (src/app/head-scripts/route-preload.js):
      // running a dozen pages' modules at once was a long task on the page on screen. Without a list, they
      // load here.
      if (window.preloadPagesUnder?.(`/${path}/`)) return;
      Object.values(pages).forEach(({ Page }) => void Page.preload());
    });
  }, [admitted, pages, path]);
  if (pending) return <SessionPending />;
  if (admitted) return <Layout />;
  return auth.session ? <PermissionDenied /> : <RedirectToLogin />;
}

/** A page with its title in the browser tab. */
function TitledPage({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return children;
}

const routesFor = (pages: PagesByPath) =>
  Object.entries(pages).map(([path, { title, Page, signedOutOnly }]) => (
    <Route
      key={path}
      path={path}
      element={
        <TitledPage title={title}>
          {signedOutOnly ? (
            <SignedOutOnly>
              <Page />
            </SignedOutOnly>
          ) : (
            <Page />
          )}
        </TitledPage>
      }
    />
  ));

/** What any address no page answers shows (inside an area too: /user/nothing). */
const NotFoundPage = lazyPage(() => import('./routes/not-found'));

/** Pages that never raise a toast, so their visitors do not download the toaster. */
export const pathsWithoutToasts: ReadonlySet<string> = new Set([
  '/',
  '/terms-of-service',
  '/privacy-policy',
  '/disclaimer',
]);

/**
 * Every route. Memoised: it reads nothing but the location, which `Routes` follows itself, and react-router
 * builds and ranks the whole route tree on each of its renders (the app root re-renders when the toaster
 * arrives, for one).
 */
export const AppRoutes = memo(function AppRoutes() {
  return (
    <Routes>
      {/* The landing page and its shell ship in the entry chunk: the most visited page paints without a
          second round of chunk requests (its largest paint is what the landing-vitals bench budgets). */}
      <Route element={<PublicLayoutRoute />}>
        <Route
          index
          element={
            <TitledPage title={landingTitle}>
              <LandingRoute />
            </TitledPage>
          }
        />
        {routesFor(publicShellPages)}
      </Route>
      <Route element={<SessionAwarePublicLayoutRoute />}>{routesFor(sessionAwarePublicShellPages)}</Route>
      {routesFor(passThroughPages)}
      {Object.entries(areas).map(([path, area]) => (
        <Route key={path} path={path} element={<AreaRoute path={path} area={area} />}>
          <Route index element={<Navigate to={`/${path}/${area.home}`} replace />} />
          {routesFor(area.pages)}
        </Route>
      ))}
      <Route element={<PublicLayoutRoute />}>
        <Route
          path="*"
          element={
            <TitledPage title="Page not found">
              <NotFoundPage />
            </TitledPage>
          }
        />
      </Route>
    </Routes>
  );
});
