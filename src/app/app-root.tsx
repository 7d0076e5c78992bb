import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { RouteErrorBoundary } from '@/components/errors/route-error-boundary';
import { afterFirstContentfulPaint } from '@/lib/after-first-paint';
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
  const [toasterNeeded, setToasterNeeded] = useState(false);
  // After the page's first paint, which then does not share the network with the toaster's code; a
  // message raised meanwhile waits for it (error-notices).
  useEffect(() => {
    if (!quietPage && !toasterNeeded) return afterFirstContentfulPaint(() => setToasterNeeded(true));
  }, [quietPage, toasterNeeded]);
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
