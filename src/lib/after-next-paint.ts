/**
 * Resolves once the browser has drawn its next frame: what follows (a request to Supabase and the work of
 * making it) is no part of the task that shows what asked for it. At once on a hidden page, which draws
 * no frames, and after 100 ms at the latest (a page hidden while it waits).
 */
export function afterNextPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden')
    return Promise.resolve();
  return new Promise((resolve) => {
    const latest = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(latest);
        resolve();
      }, 0),
    );
  });
}
