import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // The browser session ends with each test: its session cookies (once-per-session flags) go. Tests that
  // run in Node (no document) have none.
  if (typeof document === 'undefined') return;
  for (const cookie of document.cookie.split('; ').filter(Boolean)) {
    document.cookie = `${cookie.split('=')[0]}=; path=/; max-age=0`;
  }
});
