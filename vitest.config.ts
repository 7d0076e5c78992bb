import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': fileURLToPath(new URL('./src', import.meta.url)),
  '@domain': fileURLToPath(new URL('./packages/domain', import.meta.url)),
};

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'unit',
          // A file that renders or reads the DOM says so in its first line (`// @vitest-environment jsdom`):
          // a jsdom per file costs more than most files' tests, and threads start faster than processes.
          environment: 'node',
          pool: 'threads',
          globals: true,
          include: [
            'src/**/*.test.{ts,tsx}',
            'packages/**/*.test.ts',
            'supabase/functions/**/*.test.ts',
            'eslint/**/*.test.ts',
            'tests/docs/**/*.test.ts',
            'devstack/src/**/*.test.ts',
          ],
          setupFiles: ['tests/setup/unit.ts'],
          // Each test starts with the real globals and the real implementations a test before it replaced.
          unstubGlobals: true,
          restoreMocks: true,
          // Typing into a form in jsdom takes seconds when the machine is busy (the unit run shares it
          // with the stack run: scripts/run-together.ts); the default 5 s timed out there.
          testTimeout: 15_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'stack',
          environment: 'node',
          include: ['tests/db/**/*.test.ts', 'tests/stack/**/*.test.ts'],
          globalSetup: ['tests/setup/global-stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One shared stack; files run one after another on this 2-core machine, each in a thread (a thread
          // starts faster than a process).
          fileParallelism: false,
          pool: 'threads',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'faults',
          environment: 'node',
          // Each file breaks the database or floods the gateway, so each starts its own stack.
          include: ['tests/faults/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
