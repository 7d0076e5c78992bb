import { lazy, Suspense, useEffect, useState } from 'react';
import { afterDelayWhenIdle } from '@/lib/when-idle';

const NotificationBell = lazy(() =>
  import('./notification-bell').then(({ NotificationBell: component }) => ({ default: component })),
);

/**
 * The bell, loaded once the browser is idle after the page's first render: its code and its reads never
 * share the network with the page's own first paint. It sits at the start of the right-aligned account
 * links, so its arrival moves nothing else.
 */
export function LazyNotificationBell() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => afterDelayWhenIdle(0, () => setWanted(true)), []);
  return (
    wanted && (
      <Suspense>
        <NotificationBell />
      </Suspense>
    )
  );
}
