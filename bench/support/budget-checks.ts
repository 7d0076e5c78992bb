import { recordRun } from './results';

/**
 * A measured value, the budget it is held to (as text), whether it is within that budget, and what a miss
 * is called in the table (over budget, unless said otherwise).
 */
export type BudgetCheck = readonly [value: number, budget: string, withinBudget: boolean, miss?: string];

/** The share of its target a load must reach for the run's other figures to count. */
export const REACHED_LOAD_SHARE = 0.95;

/**
 * The load the bench offered against the load it set out to offer: a run that could not offer it (a
 * starved machine, a slow generator) measured something else, and fails as such rather than passing.
 */
export function reachedLoad(reached: number, target: number, unit: string): BudgetCheck {
  return [
    Number(reached.toFixed(1)),
    `≥ ${Math.round(REACHED_LOAD_SHARE * 100)} % of ${target} ${unit}`,
    reached >= REACHED_LOAD_SHARE * target,
    'DID NOT REACH THE LOAD',
  ];
}

/**
 * Prints the checks as one table, saves their values (and any other `figures`) with the run's results,
 * and sets a failing exit code when any check missed.
 */
export async function reportBudgetChecks(
  checks: Record<string, BudgetCheck>,
  figures: Record<string, number> = {},
): Promise<void> {
  console.table(
    Object.fromEntries(
      Object.entries(checks).map(([name, [value, budget, ok, miss]]) => [
        name,
        { value, budget, result: ok ? 'ok' : (miss ?? 'OVER BUDGET') },
      ]),
    ),
  );
  const missed = Object.entries(checks).filter(([, [, , ok]]) => !ok);
  const unreached = missed.filter(([, [, , , miss]]) => miss === 'DID NOT REACH THE LOAD');
  if (unreached.length > 0) {
    console.log(
      `✗ did not reach the load (${unreached.map(([name]) => name).join(', ')}): the other figures do not count`,
    );
  }
  if (missed.length > 0) process.exitCode = 1;
  await recordRun({
    ...Object.fromEntries(Object.entries(checks).map(([name, [value]]) => [name, value])),
    ...figures,
  });
}

/**
 * The length of a bench's timed phase in seconds: its default, or `BENCH_SECONDS` for a short look (a
 * starved run, a change being tried). The budgets hold for the default.
 */
export function benchSeconds(defaultSeconds: number): number {
  const asked = Number(process.env.BENCH_SECONDS);
  return Number.isFinite(asked) && asked > 0 ? asked : defaultSeconds;
}
