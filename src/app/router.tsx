import { lazy, type ComponentType } from 'react';
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
const TermsOfService = lazy(() => import('./routes/terms-of-service'));
const PrivacyPolicy = lazy(() => import('./routes/privacy-policy'));
const Disclaimer = lazy(() => import('./routes/disclaimer'));
const LogIn = serverDataPage(() => import('./routes/auth/login'));
const SignUp = serverDataPage(() => import('./routes/auth/signup'));
const ResetPassword = serverDataPage(() => import('./routes/auth/reset-password'));
const UpdatePassword = serverDataPage(() => import('./routes/auth/update-password'));
const LogOut = serverDataPage(() => import('./routes/auth/logout'));
const Dashboard = lazy(() => import('./routes/dashboard'));
const UserLayout = serverDataPage(() => import('./routes/user/layout'));
const Wallet = lazy(() => import('./routes/user/wallet'));
const Buy = lazy(() => import('./routes/user/buy'));
const Withdraw = lazy(() => import('./routes/user/withdraw'));
const Account = lazy(() => import('./routes/user/account'));
const AdminLayout = serverDataPage(() => import('./routes/admin/layout'));
const AdminUsers = lazy(() => import('./routes/admin/users'));
const AdminTransactions = lazy(() => import('./routes/admin/transactions'));
const AdminDeposit = lazy(() => import('./routes/admin/deposit'));
const AdminStatusTypes = lazy(() => import('./routes/admin/status-types'));
const AdminBuyRequests = lazy(() => import('./routes/admin/buy-requests'));
const AdminWithdrawRequests = lazy(() => import('./routes/admin/withdraw-requests'));
const AdminSettings = lazy(() => import('./routes/admin/settings'));
const AdminAuditLog = lazy(() => import('./routes/admin/audit-log'));

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
