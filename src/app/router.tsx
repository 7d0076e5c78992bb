import { Navigate, Route, Routes } from 'react-router-dom';
import { lazyPage, type LazyPage, type PageModule } from './lazy-page';
import LandingRoute from './routes/landing';
import PublicLayoutRoute from './routes/public-layout';

/*
 * Declarative routes rather than a data router: no page has a loader or an action, and the data
 * router's state machine alone weighed 16 KiB gzip of a visitor's first load (bench/landing-bundle).
 * Each page below is its own chunk, so a visitor's landing page loads only what it shows.
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

const TermsOfService = lazyPage(() => import('./routes/terms-of-service'));
const PrivacyPolicy = lazyPage(() => import('./routes/privacy-policy'));
const Disclaimer = lazyPage(() => import('./routes/disclaimer'));
const LogIn = serverDataPage(() => import('./routes/auth/login'));
const SignUp = serverDataPage(() => import('./routes/auth/signup'));
const ResetPassword = serverDataPage(() => import('./routes/auth/reset-password'));
const UpdatePassword = serverDataPage(() => import('./routes/auth/update-password'));
const LogOut = serverDataPage(() => import('./routes/auth/logout'));
const Dashboard = lazyPage(() => import('./routes/dashboard'));
const UserLayout = serverDataPage(() => import('./routes/user/layout'));
const Wallet = lazyPage(() => import('./routes/user/wallet'));
const Buy = lazyPage(() => import('./routes/user/buy'));
const Withdraw = lazyPage(() => import('./routes/user/withdraw'));
const Account = lazyPage(() => import('./routes/user/account'));
const AdminLayout = serverDataPage(() => import('./routes/admin/layout'));
const AdminUsers = lazyPage(() => import('./routes/admin/users'));
const AdminTransactions = lazyPage(() => import('./routes/admin/transactions'));
const AdminDeposit = lazyPage(() => import('./routes/admin/deposit'));
const AdminStatusTypes = lazyPage(() => import('./routes/admin/status-types'));
const AdminBuyRequests = lazyPage(() => import('./routes/admin/buy-requests'));
const AdminWithdrawRequests = lazyPage(() => import('./routes/admin/withdraw-requests'));
const AdminSettings = lazyPage(() => import('./routes/admin/settings'));
const AdminAuditLog = lazyPage(() => import('./routes/admin/audit-log'));

type PagesByPath = Partial<Record<string, LazyPage>>;
const publicPages: PagesByPath = {
  'terms-of-service': TermsOfService,
  'privacy-policy': PrivacyPolicy,
  disclaimer: Disclaimer,
  login: LogIn,
  signup: SignUp,
  'reset-password': ResetPassword,
  'update-password': UpdatePassword,
  logout: LogOut,
  dashboard: Dashboard,
};
/** Each area's layout, its pages, and the page its bare path leads to. */
const areas: Partial<Record<string, { layout: LazyPage; pages: PagesByPath; home: string }>> = {
  user: {
    layout: UserLayout,
    pages: { wallet: Wallet, buy: Buy, withdraw: Withdraw, account: Account },
    home: 'wallet',
  },
  admin: {
    layout: AdminLayout,
    pages: {
      users: AdminUsers,
      transactions: AdminTransactions,
      deposit: AdminDeposit,
      'status-types': AdminStatusTypes,
      'buy-requests': AdminBuyRequests,
      'withdraw-requests': AdminWithdrawRequests,
      settings: AdminSettings,
      'audit-log': AdminAuditLog,
    },
    home: 'users',
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
  const wanted = area ? [area.layout, area.pages[second ?? area.home]] : [publicPages[first]];
  await Promise.allSettled(wanted.map((page) => page?.preload()));
}

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
