import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COALESCED_TIMER_MIN_DELAY_MS,
  COALESCED_TIMER_STEP_MS,
  coalescedTimeouts,
} from './coalesced-timeouts';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse('2026-11-27T12:00:00.000Z'));
});

describe('coalesced timeouts (TanStack Query timers)', () => {
  it('runs a long timer once it is due, on the next whole step, never before', () => {
    const timers = coalescedTimeouts();
    const ran = vi.fn();
    // Set on a whole second: due 30.25 s later, run on the next whole step after that.
    timers.setTimeout(ran, 30_250);
    const runsAt = Math.ceil(30_250 / COALESCED_TIMER_STEP_MS) * COALESCED_TIMER_STEP_MS;
    vi.advanceTimersByTime(runsAt - 1);
    expect(ran).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ran).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(60_000);
    expect(ran).toHaveBeenCalledOnce();
  });

  it('never runs a cleared timer, and runs the others on time', () => {
    const timers = coalescedTimeouts();
    const cleared = vi.fn();
    const kept = vi.fn();
    const id = timers.setTimeout(cleared, 10_000);
    timers.setTimeout(kept, 20_000);
    timers.clearTimeout(id);
    vi.advanceTimersByTime(20_000);
    expect(cleared).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledOnce();
  });

  it('serves many long timers, set and cleared as a page loads, with one platform timer', () => {
    const timers = coalescedTimeouts();
    const platformSet = vi.spyOn(globalThis, 'setTimeout');
    const platformCleared = vi.spyOn(globalThis, 'clearTimeout');
    for (let query = 0; query < 50; query += 1) {
      const collect = timers.setTimeout(() => {}, 300_000);
      timers.setTimeout(() => {}, 300_000 + query);
      timers.clearTimeout(collect);
    }
    expect(platformSet).toHaveBeenCalledTimes(1);
    expect(platformCleared).not.toHaveBeenCalled();
  });

  it('wakes earlier for a timer due before the one it waits for', () => {
    const timers = coalescedTimeouts();
    const collect = vi.fn();
    const stale = vi.fn();
    timers.setTimeout(collect, 300_000);
    timers.setTimeout(stale, 30_000);
    vi.advanceTimersByTime(30_000);
    expect(stale).toHaveBeenCalledOnce();
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(270_000);
    expect(collect).toHaveBeenCalledOnce();
  });

  it('leaves a short timer (a retry pause) to the platform, exactly on time', () => {
    const timers = coalescedTimeouts();
    const retry = vi.fn();
    const cancelled = vi.fn();
    timers.setTimeout(retry, 1_250);
    timers.clearTimeout(timers.setTimeout(cancelled, COALESCED_TIMER_MIN_DELAY_MS - 1));
    vi.advanceTimersByTime(1_249);
    expect(retry).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(retry).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(COALESCED_TIMER_MIN_DELAY_MS);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('runs the other timers due together when one of them throws, and keeps serving later ones', () => {
    const timers = coalescedTimeouts();
    const other = vi.fn();
    const later = vi.fn();
    timers.setTimeout(() => {
      throw new Error('a callback failed');
    }, 10_000);
    timers.setTimeout(other, 10_000);
    timers.setTimeout(later, 60_000);
    expect(() => vi.advanceTimersByTime(10_000)).toThrow('a callback failed');
    expect(other).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(50_000);
    expect(later).toHaveBeenCalledOnce();
  });
});
