import type { ComponentType } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RouteErrorScreen } from '@/components/errors/route-error-screen';
import { AppRoot, type PageHandle } from './app-root';
import LandingRoute from './routes/landing';
import PublicLayoutRoute from './routes/public-layout';

type PageModule = { default: ComponentType };

/** Each page is its own chunk, so a visitor's landing page loads only what it shows. */
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** The landing and legal pages raise no toasts, so their visitors skip the toaster's download. */
const quiet: Pick<RouteObject, 'handle'> = { handle: { toasts: false } satisfies PageHandle };

export const routes: RouteObject[] = [
  {
    // The landing page and its shell ship in the entry chunk: the most visited page paints without a
    // second round of chunk requests (its largest paint is what the landing-vitals bench budgets).
    Component: PublicLayoutRoute,
    children: [
      { index: true, Component: LandingRoute, ...quiet },
      { path: 'terms-of-service', ...quiet, ...page(() => import('./routes/terms-of-service')) },
      { path: 'privacy-policy', ...quiet, ...page(() => import('./routes/privacy-policy')) },
      { path: 'disclaimer', ...quiet, ...page(() => import('./routes/disclaimer')) },
      { path: 'login', ...page(() => import('./routes/auth/login')) },
      { path: 'signup', ...page(() => import('./routes/auth/signup')) },
      { path: 'reset-password', ...page(() => import('./routes/auth/reset-password')) },
      { path: 'update-password', ...page(() => import('./routes/auth/update-password')) },
    ],
  },
  { path: 'logout', ...page(() => import('./routes/auth/logout')) },
  { path: 'dashboard', ...page(() => import('./routes/dashboard')) },
  {
    path: 'user',
    ...page(() => import('./routes/user/layout')),
    children: [
      { index: true, element: <Navigate to="/user/wallet" replace /> },
      { path: 'wallet', ...page(() => import('./routes/user/wallet')) },
      { path: 'buy', ...page(() => import('./routes/user/buy')) },
      { path: 'withdraw', ...page(() => import('./routes/user/withdraw')) },
      { path: 'account', ...page(() => import('./routes/user/account')) },
    ],
  },
  {
    path: 'admin',
    ...page(() => import('./routes/admin/layout')),
    children: [
      { index: true, element: <Navigate to="/admin/users" replace /> },
      { path: 'users', ...page(() => import('./routes/admin/users')) },
      { path: 'transactions', ...page(() => import('./routes/admin/transactions')) },
      { path: 'deposit', ...page(() => import('./routes/admin/deposit')) },
      { path: 'status-types', ...page(() => import('./routes/admin/status-types')) },
      { path: 'buy-requests', ...page(() => import('./routes/admin/buy-requests')) },
      { path: 'withdraw-requests', ...page(() => import('./routes/admin/withdraw-requests')) },
      { path: 'settings', ...page(() => import('./routes/admin/settings')) },
      { path: 'audit-log', ...page(() => import('./routes/admin/audit-log')) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

export function createAppRouter() {
  // Pathless roots: the app root (toaster) and, inside it, what catches any page's error while loading
  // or rendering, so the toaster outlives an error screen.
  return createBrowserRouter([
    { Component: AppRoot, children: [{ errorElement: <RouteErrorScreen />, children: routes }] },
  ]);
}
