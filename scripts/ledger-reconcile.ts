/**
 * `npm run ledger:reconcile -- [--db-url <url>] [--format json|csv] [--from-checkpoint]`: the operator's
 * reconciliation report (ledger.reconcile) for the local stack's database by default, or any database by URL;
 * the chain verified from genesis, or with --from-checkpoint after the latest verified checkpoint's head (the
 * report names it and says the entries before are out of scope of the run). Prints JSON (default)
 * or CSV carrying the chain head and the latest checkpoint's root, so two operators can compare reports, and
 * exits 1 when there is any difference, so a schedule or CI can alarm on it.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { reconciliationCsv, type ReconciliationReport } from '../packages/domain/reconciliation-report';

const localStackDatabase = 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';

async function main() {
  const { values } = parseArgs({
    options: {
      'db-url': { type: 'string', default: process.env.DATABASE_URL ?? localStackDatabase },
      format: { type: 'string', default: 'json' },
      'from-checkpoint': { type: 'boolean', default: false },
    },
  });
  if (values.format !== 'json' && values.format !== 'csv') {
    console.error(`--format must be json or csv, not ${values.format}`);
    process.exit(2);
  }
  const client = new pg.Client({ connectionString: values['db-url'] });
  await client.connect();
  try {
    const { rows } = await client.query<{ report: ReconciliationReport }>(
      'select ledger.reconcile($1) as report',
      [values['from-checkpoint']],
    );
    const [row] = rows;
    if (!row) throw new Error('ledger.reconcile() answered nothing');
    const report = row.report;
    process.stdout.write(
      values.format === 'csv' ? reconciliationCsv(report) : `${JSON.stringify(report, null, 2)}\n`,
    );
    console.error(report.scope);
    if (report.differences.length > 0) {
      console.error(`${report.differences.length} difference(s) found`);
      process.exitCode = 1;
    }
  } finally {
    await client.end();
  }
}

await main();
