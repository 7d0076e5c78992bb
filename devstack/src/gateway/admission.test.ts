import { describe, expect, it } from 'vitest';
import { createAdmission, createLoopLagMonitor, lagWindowMs, maxLoopLagMs } from './admission';

/** A lag monitor on a clock the test moves, ticking every 20 ms as the gateway's does. */
function monitorOnClock() {
  let clock = 0;
  const monitor = createLoopLagMonitor(() => clock);
  monitor.stop();
  return {
    monitor,
    /** The loop runs on time for `ms`. */
    onTime(ms: number) {
      for (let elapsed = 0; elapsed < ms; elapsed += 20) {
        clock += 20;
        monitor.tick();
      }
    },
    /** The process stops for `ms` (nothing runs), then a request is read before the timer's turn. */
    stalled(ms: number) {
      clock += ms;
    },
  };
}

describe('the gateway’s loop-lag admission', () => {
  it('admits a request read right after one stall shorter than the window (a busy machine, a GC pause)', () => {
    const { monitor, onTime, stalled } = monitorOnClock();
    onTime(1_000);
    stalled(maxLoopLagMs + 100);
    expect(monitor.sustainedLagMs()).toBeLessThan(maxLoopLagMs);
    const admission = createAdmission({ rest: 10, auth: 10, functions: 10 }, monitor.sustainedLagMs);
    admission.admit('rest');
    expect(admission.admit('auth')).toBeDefined();
  });

  it('refuses while the loop has been late throughout the window, or blocked for longer than it', () => {
    const late = monitorOnClock();
    late.onTime(1_000);
    for (let turn = 0; turn < 5; turn++) {
      late.stalled(maxLoopLagMs + 50);
      late.onTime(20);
    }
    expect(late.monitor.sustainedLagMs()).toBeGreaterThan(maxLoopLagMs);

    const blocked = monitorOnClock();
    blocked.onTime(1_000);
    blocked.stalled(lagWindowMs + 100);
    expect(blocked.monitor.sustainedLagMs()).toBeGreaterThan(maxLoopLagMs);
    const admission = createAdmission({ rest: 10, auth: 10, functions: 10 }, blocked.monitor.sustainedLagMs);
    admission.admit('rest');
    expect(admission.admit('auth')).toBeUndefined();
  });
});
