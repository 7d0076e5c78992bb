import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, hostname, loadavg, totalmem } from 'node:os';
import path from 'node:path';

/**
 * Each run's figures, kept as JSON under `bench/results/<bench>/` (git-ignored: figures belong to the
 * machine that measured them), and printed beside the previous run on the same machine.
 */
const resultsDir = new URL('../results/', import.meta.url).pathname;

interface SavedRun {
  bench: string;
  machine: string;
  at: string;
  loadAverage: number;
  figures: Record<string, number>;
}

/** The bench this process runs: `bench/<name>.bench.ts`. */
function benchName(): string {
  return path.basename(process.argv[1] ?? 'unknown', '.bench.ts');
}

/** What makes runs comparable: the same host, processor and memory. */
function machine(): string {
  const processors = cpus();
  const memoryGb = Math.round(totalmem() / 2 ** 30);
  return `${hostname()} · ${processors.length} × ${processors[0]?.model.trim() ?? 'unknown CPU'} · ${memoryGb} GB`;
}

async function previousRun(folder: string, onMachine: string): Promise<SavedRun | undefined> {
  const files = (await readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith('.json'));
  for (const file of files.sort().reverse()) {
    const run = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as SavedRun;
    if (run.machine === onMachine) return run;
  }
  return undefined;
}

/** Saves this run's figures and prints each with the previous run's value on this machine and the change. */
export async function recordRun(figures: Record<string, number>): Promise<void> {
  const bench = benchName();
  const folder = path.join(resultsDir, bench);
  const run: SavedRun = {
    bench,
    machine: machine(),
    at: new Date().toISOString(),
    loadAverage: Number((loadavg()[0] ?? 0).toFixed(2)),
    figures,
  };
  const previous = await previousRun(folder, run.machine);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${run.at.replaceAll(':', '-')}.json`);
  await writeFile(file, `${JSON.stringify(run, null, 2)}\n`);
  if (!previous) {
    console.log(
      `First run of ${bench} on this machine; figures kept in ${path.relative(process.cwd(), file)}`,
    );
    return;
  }
  console.log(
    `Against the previous run on this machine (${previous.at}, load ${previous.loadAverage} → now ${run.loadAverage}):`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(figures).map(([name, value]) => {
        const before = previous.figures[name];
        const change =
          before === undefined || !Number.isFinite(before) || !Number.isFinite(value)
            ? '—'
            : before === 0
              ? value === 0
                ? '±0 %'
                : 'new'
              : `${value >= before ? '+' : ''}${(((value - before) / Math.abs(before)) * 100).toFixed(1)} %`;
        return [name, { previous: before ?? '—', now: value, change }];
      }),
    ),
  );
}
