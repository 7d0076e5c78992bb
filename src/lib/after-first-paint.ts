/**
 * Runs `task` once the page has painted its first content (at once when it already has), so downloads
 * that the first screen does not need (the session client on a visitor's log-in form, the toaster) never
 * hold it back nor share the network with it. The browser reports that paint after it is on screen. A
 * browser without paint timing runs `task` after the current one. Returns the cancel.
 */
export function afterFirstContentfulPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let observer: PerformanceObserver | undefined;
  const run = () => {
    observer?.disconnect();
    timer = setTimeout(task, 0);
  };
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes.includes('paint') ||
    painted()
  ) {
    run();
  } else {
    observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length > 0) run();
    });
    observer.observe({ type: 'paint', buffered: true });
  }
  return () => {
    observer?.disconnect();
    clearTimeout(timer);
  };
}
