import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { RouteErrorBoundary } from '@/components/errors/route-error-boundary';
import { AppRoutes, pathsWithoutToasts } from './router';

const Toaster = lazy(() =>
  import('@/components/ui/toaster').then(({ Toaster: component }) => ({ default: component })),
);

/**
 * Every page, plus the toaster from the first page that can raise a toast on. The toaster then stays,
 * so a toast raised just before leaving a page (logged in, logged out) still shows on the next one,
 * and it sits outside the error boundary, so it outlives an error screen.
 */
export function AppRoot() {
  const { pathname } = useLocation();
  const quietPage = pathsWithoutToasts.has(pathname.replace(/(.)\/+$/, '$1'));
  const [toasterNeeded, setToasterNeeded] = useState(!quietPage);
  if (!quietPage && !toasterNeeded) setToasterNeeded(true);
  return (
    <>
      <RouteErrorBoundary pathname={pathname}>
        {/* Navigations are transitions, so the current page stays up while the next one's chunk loads. */}
        <Suspense>
          <AppRoutes />
        </Suspense>
      </RouteErrorBoundary>
      {toasterNeeded && (
        <Suspense>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
