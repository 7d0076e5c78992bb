import { startStack } from '../../devstack/src/stack';

/**
 * The stack's start path in a process of its own, for tests/faults/stack-exit-paths.test.ts: starts the
 * stack for the project at argv[2], prints its data folder as one JSON line, and runs until it is
 * signalled; with `crash` it then fails with an uncaught error, as a bug in the start path would.
 */
const [projectRoot, mode] = process.argv.slice(2);
const stack = await startStack({ projectRoot });
console.log(JSON.stringify({ dataDir: stack.postgres.dataDir }));
if (mode === 'crash') {
  setTimeout(() => {
    throw new Error('the start path crashed');
  }, 10);
}
setInterval(() => undefined, 60_000);
