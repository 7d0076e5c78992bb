import { lazy, Suspense } from 'react';

const NotificationBell = lazy(() =>
  import('./notification-bell').then(({ NotificationBell: component }) => ({ default: component })),
);

/** The bell, loaded beside the page rather than before it: the page's own first paint never waits for it. */
export function LazyNotificationBell() {
  return (
    <Suspense>
      <NotificationBell />
    </Suspense>
  );
}
