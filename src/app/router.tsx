import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import LandingRoute from './routes/landing';
import PublicLayoutRoute from './routes/public-layout';

/*
 * Declarative routes rather than a data router: no page has a loader or an action, and the data
 * router's state machine alone weighed 16 KiB gzip of a visitor's first load (bench/landing-bundle).
 * Each page below is its own chunk, so a visitor's landing page loads only what it shows.
 */

type PageModule = { default: ComponentType };

/**
 * A page (or area layout) that reads or writes server data: it renders inside the app's one TanStack
 * Query cache, whose code loads together with the page's, never with the public pages.
 */
function serverDataPage(load: () => Promise<PageModule>) {
  return lazy(async () => {
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

/**
 * An area's pages (`/user/*`, `/admin/*`), each its own chunk. `preloadRequested` starts loading the
 * page the address asks for, so it arrives with the area's layout rather than after the layout has
 * rendered and the session is restored (nested lazy components would otherwise load one by one).
 */
function areaPages<Path extends string>(area: string, loaders: Record<Path, () => Promise<PageModule>>) {
  const pages = Object.fromEntries(
    Object.entries<() => Promise<PageModule>>(loaders).map(([path, load]) => [path, lazy(load)]),
  ) as Record<Path, LazyExoticComponent<ComponentType>>;
  const loadersByPath: Partial<Record<string, () => Promise<PageModule>>> = loaders;
  const preloadRequested = () => {
    const requested = window.location.pathname.slice(`/${area}/`.length).split('/')[0] ?? '';
    void loadersByPath[requested]?.();
  };
  return { pages, preloadRequested };
}

const TermsOfService = lazy(() => import('./routes/terms-of-service'));
const PrivacyPolicy = lazy(() => import('./routes/privacy-policy'));
const Disclaimer = lazy(() => import('./routes/disclaimer'));
const LogIn = serverDataPage(() => import('./routes/auth/login'));
const SignUp = serverDataPage(() => import('./routes/auth/signup'));
const ResetPassword = serverDataPage(() => import('./routes/auth/reset-password'));
const UpdatePassword = serverDataPage(() => import('./routes/auth/update-password'));
const LogOut = serverDataPage(() => import('./routes/auth/logout'));
const Dashboard = lazy(() => import('./routes/dashboard'));
const userArea = areaPages('user', {
  wallet: () => import('./routes/user/wallet'),
  buy: () => import('./routes/user/buy'),
  withdraw: () => import('./routes/user/withdraw'),
  account: () => import('./routes/user/account'),
});
const UserLayout = serverDataPage(() => {
  userArea.preloadRequested();
  return import('./routes/user/layout');
});
const adminArea = areaPages('admin', {
  users: () => import('./routes/admin/users'),
  transactions: () => import('./routes/admin/transactions'),
  deposit: () => import('./routes/admin/deposit'),
  'status-types': () => import('./routes/admin/status-types'),
  'buy-requests': () => import('./routes/admin/buy-requests'),
  'withdraw-requests': () => import('./routes/admin/withdraw-requests'),
  settings: () => import('./routes/admin/settings'),
  'audit-log': () => import('./routes/admin/audit-log'),
});
const AdminLayout = serverDataPage(() => {
  adminArea.preloadRequested();
  return import('./routes/admin/layout');
});
const { wallet: Wallet, buy: Buy, withdraw: Withdraw, account: Account } = userArea.pages;
const {
  users: AdminUsers,
  transactions: AdminTransactions,
  deposit: AdminDeposit,
  'status-types': AdminStatusTypes,
  'buy-requests': AdminBuyRequests,
  'withdraw-requests': AdminWithdrawRequests,
  settings: AdminSettings,
  'audit-log': AdminAuditLog,
} = adminArea.pages;

/** Pages that never raise a toast, so their visitors do not download the toaster. */
export const pathsWithoutToasts: ReadonlySet<string> = new Set([
  '/',
  '/terms-of-service',
  '/privacy-policy',
  '/disclaimer',
]);

export function AppRoutes() {
  return (
    <Routes>
      {/* The landing page and its shell ship in the entry chunk: the most visited page paints without a
          second round of chunk requests (its largest paint is what the landing-vitals bench budgets). */}
      <Route element={<PublicLayoutRoute />}>
        <Route index element={<LandingRoute />} />
        <Route path="terms-of-service" element={<TermsOfService />} />
        <Route path="privacy-policy" element={<PrivacyPolicy />} />
        <Route path="disclaimer" element={<Disclaimer />} />
        <Route path="login" element={<LogIn />} />
        <Route path="signup" element={<SignUp />} />
        <Route path="reset-password" element={<ResetPassword />} />
        <Route path="update-password" element={<UpdatePassword />} />
      </Route>
      <Route path="logout" element={<LogOut />} />
      <Route path="dashboard" element={<Dashboard />} />
      <Route path="user" element={<UserLayout />}>
        <Route index element={<Navigate to="/user/wallet" replace />} />
        <Route path="wallet" element={<Wallet />} />
        <Route path="buy" element={<Buy />} />
        <Route path="withdraw" element={<Withdraw />} />
        <Route path="account" element={<Account />} />
      </Route>
      <Route path="admin" element={<AdminLayout />}>
        <Route index element={<Navigate to="/admin/users" replace />} />
        <Route path="users" element={<AdminUsers />} />
        <Route path="transactions" element={<AdminTransactions />} />
        <Route path="deposit" element={<AdminDeposit />} />
        <Route path="status-types" element={<AdminStatusTypes />} />
        <Route path="buy-requests" element={<AdminBuyRequests />} />
        <Route path="withdraw-requests" element={<AdminWithdrawRequests />} />
        <Route path="settings" element={<AdminSettings />} />
        <Route path="audit-log" element={<AdminAuditLog />} />
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
