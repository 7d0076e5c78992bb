/**
 * Runs the npm scripts named on the command line at once (`tsx scripts/run-together.ts lint typecheck`),
 * for steps that share nothing, so that a step waiting on one core leaves the other to the next. An
 * argument `a+b` runs `b` after `a` has passed, beside the others (a lane). Each output line is prefixed
 * with its script, the exit code is the first failing script's, and each script's wall time is printed
 * at the end.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

interface Outcome {
  script: string;
  code: number;
  seconds: number;
}

const lanes = process.argv.slice(2).map((argument) => argument.split('+'));
if (lanes.length === 0) throw new Error('Name the npm scripts to run together');

function runScript(script: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => console.log(`[${script}] ${line}`));
    }
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

async function runLane(scripts: string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const script of scripts) {
    const outcome = await runScript(script);
    outcomes.push(outcome);
    if (outcome.code !== 0) break;
  }
  return outcomes;
}

const outcomes = (await Promise.all(lanes.map(runLane))).flat();
for (const { script, code, seconds } of outcomes) {
  console.log(`${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
}
const notRun = lanes.flat().filter((script) => !outcomes.some((outcome) => outcome.script === script));
for (const script of notRun) console.log(`${script}: not run (an earlier script of its lane failed)`);
process.exitCode = outcomes.find(({ code }) => code !== 0)?.code ?? 0;
