/**
 * `npm run test:vitest`: the unit project beside the stack and fault projects, as two Vitest runs at
 * once. They share nothing (unit tests run in jsdom; the others start their own stacks), and Vitest
 * itself runs projects whose files go one at a time (`fileParallelism: false`) after all the others, so
 * one run would leave a core idle while the stack tests wait on their stack. Each line is prefixed with
 * its run; the exit code is the first failing run's, and each run's wall time is printed at the end.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const vitest = new URL('../node_modules/.bin/vitest', import.meta.url).pathname;
const runs: Record<string, string[]> = {
  unit: ['--project', 'unit'],
  'stack and faults': ['--project', 'stack', '--project', 'faults'],
};
const extraArguments = process.argv.slice(2);

const outcomes = await Promise.all(
  Object.entries(runs).map(
    ([name, projects]) =>
      new Promise<{ name: string; code: number; seconds: number }>((resolve) => {
        const started = performance.now();
        const child = spawn(vitest, ['run', ...projects, ...extraArguments], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
        });
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
        }
        child.on('close', (code, signal) =>
          resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }),
        );
      }),
  ),
);

for (const { name, code, seconds } of outcomes) {
  console.log(`${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
}
process.exitCode = outcomes.find(({ code }) => code !== 0)?.code ?? 0;
