// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from './after-next-paint';

/** Frames the test draws by hand: each requested callback waits until `drawFrame`. */
function framesDrawnByHand() {
  const waiting: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => waiting.push(callback));
  return () => waiting.splice(0).forEach((callback) => callback(performance.now()));
}

function visibility(state: DocumentVisibilityState) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
}

describe('after the next paint', () => {
  it('waits until the browser has drawn its next frame, then lets the task that drew it end', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    visibility('visible');
    const drawFrame = framesDrawnByHand();
    let done = false;
    void afterNextPaint().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(done).toBe(false);
    drawFrame();
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('does not wait on a hidden page, which draws no frames', async () => {
    visibility('hidden');
    framesDrawnByHand();
    await expect(afterNextPaint()).resolves.toBeUndefined();
  });

  it('waits 100 ms at the most when no frame comes (a page hidden while it waits)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    visibility('visible');
    framesDrawnByHand();
    let done = false;
    void afterNextPaint().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
