/** A measured value, the budget it is held to (as text), and whether it is within that budget. */
export type BudgetCheck = readonly [value: number, budget: string, withinBudget: boolean];

/** Prints the checks as one table and sets a failing exit code when any is over budget. */
export function reportBudgetChecks(checks: Record<string, BudgetCheck>): void {
  console.table(
    Object.fromEntries(
      Object.entries(checks).map(([name, [value, budget, ok]]) => [
        name,
        { value, budget, result: ok ? 'ok' : 'OVER BUDGET' },
      ]),
    ),
  );
  if (Object.values(checks).some(([, , ok]) => !ok)) process.exitCode = 1;
}
