import type { ManagedTimerId, TimeoutCallback, TimeoutProvider } from '@tanstack/react-query';

/** A timer at least this long is coalesced; a shorter one (a retry's pause) stays the platform's. */
export const COALESCED_TIMER_MIN_DELAY_MS = 5_000;
/** How late a coalesced timer may run: each is due on the next whole multiple of this. */
export const COALESCED_TIMER_STEP_MS = 1_000;

/**
 * TanStack Query's long timers (a cached answer collected after 5 minutes, a result turning stale after
 * 30 s) in one list that a single platform timer serves. Most are cleared unrun, and each query and each
 * component showing one sets and clears some as a page loads: on the wallet's load those platform calls
 * took 30–65 ms of the main thread (each wakes the browser's timer machinery). Setting or clearing a
 * coalesced timer only touches the list; it runs up to `COALESCED_TIMER_STEP_MS` late. Its ids are
 * negative, so they never meet the platform's.
 */
export function coalescedTimeouts(): TimeoutProvider {
  const timers = new Map<number, { dueAt: number; callback: TimeoutCallback }>();
  let lastId = 0;
  let wakeAt = Infinity;
  let wake: ReturnType<typeof setTimeout> | undefined;

  const wakeBy = (dueAt: number) => {
    const at = Math.ceil(dueAt / COALESCED_TIMER_STEP_MS) * COALESCED_TIMER_STEP_MS;
    if (at >= wakeAt) return;
    if (wake !== undefined) clearTimeout(wake);
    wakeAt = at;
    wake = setTimeout(runDue, Math.max(0, at - Date.now()));
  };

  function runDue() {
    wake = undefined;
    wakeAt = Infinity;
    const now = Date.now();
    const due = [...timers].filter(([, timer]) => timer.dueAt <= now);
    for (const [id] of due) timers.delete(id);
    const next = Math.min(...Array.from(timers.values(), (timer) => timer.dueAt));
    if (next !== Infinity) wakeBy(next);
    // As with the platform's timers, one callback that throws stops none of the others.
    const failures: unknown[] = [];
    for (const [, timer] of due) {
      try {
        timer.callback();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  return {
    setTimeout(callback, delay) {
      if (delay < COALESCED_TIMER_MIN_DELAY_MS) return setTimeout(callback, delay);
      lastId -= 1;
      const dueAt = Date.now() + delay;
      timers.set(lastId, { dueAt, callback });
      wakeBy(dueAt);
      return lastId;
    },
    clearTimeout(id: ManagedTimerId | undefined) {
      if (id === undefined) return;
      if (Number(id) < 0) timers.delete(Number(id));
      else clearTimeout(id as Parameters<typeof clearTimeout>[0]);
    },
    setInterval: (callback, delay) => setInterval(callback, delay),
    clearInterval: (id) => clearInterval(id as Parameters<typeof clearInterval>[0]),
  };
}
