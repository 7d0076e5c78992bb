import { afterEach, vi } from 'vitest';

// Each test starts with the real clock (globals and spies: vitest.config.ts).
afterEach(() => {
  vi.useRealTimers();
});

// Only a file with a DOM (`// @vitest-environment jsdom`) loads Testing Library: the others run in Node.
if (typeof document !== 'undefined') {
  await import('@testing-library/jest-dom/vitest');
  const { cleanup } = await import('@testing-library/react');
  afterEach(() => {
    cleanup();
    // The browser session ends with each test: its session cookies (once-per-session flags) go.
    for (const cookie of document.cookie.split('; ').filter(Boolean)) {
      document.cookie = `${cookie.split('=')[0]}=; path=/; max-age=0`;
    }
  });
}
