import { lazy, Suspense, useState } from 'react';
import { Outlet, useMatches } from 'react-router-dom';

/** What a route declares about itself in its `handle`. */
export interface PageHandle {
  /** `false` for pages that never raise a toast, so their visitors do not download the toaster. */
  toasts?: boolean;
}

const Toaster = lazy(() =>
  import('@/components/ui/toaster').then(({ Toaster: component }) => ({ default: component })),
);

function raisesNoToasts(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'toasts' in handle && handle.toasts === false;
}

/**
 * Every page, plus the toaster from the first page that can raise a toast on. The toaster then stays,
 * so a toast raised just before leaving a page (logged in, logged out) still shows on the next one.
 */
export function AppRoot() {
  const quietPage = useMatches().some(({ handle }) => raisesNoToasts(handle));
  const [toasterNeeded, setToasterNeeded] = useState(!quietPage);
  if (!quietPage && !toasterNeeded) setToasterNeeded(true);
  return (
    <>
      <Outlet />
      {toasterNeeded && (
        <Suspense>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
