/**
 * Runs `task` after `delayMs`, once the browser is idle (1 s later at the latest; at once where the
 * browser has no idle callbacks); returns the cancel.
 */
export function afterDelayWhenIdle(delayMs: number, task: () => void): () => void {
  let cancelIdle = () => {};
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback !== 'function') return task();
    const handle = requestIdleCallback(task, { timeout: 1_000 });
    cancelIdle = () => cancelIdleCallback(handle);
  }, delayMs);
  return () => {
    clearTimeout(timer);
    cancelIdle();
  };
}
