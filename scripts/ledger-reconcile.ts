/**
 * `npm run ledger:reconcile -- [--db-url <url>] [--format json|csv]`: the operator's reconciliation report
 * (ledger.reconcile) for the local stack's database by default, or any database by URL. Prints JSON (default)
 * or CSV carrying the chain head and the latest checkpoint's root, so two operators can compare reports, and
 * exits 1 when there is any difference, so a schedule or CI can alarm on it.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';

const localStackDatabase = 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';

interface Difference {
  check: string;
  entry: number | null;
  subject: string;
  expected: string;
  found: string;
}

interface Report {
  head: { seq: number; hash: string };
  checkpoint: { id: number; head_seq: number; root: string } | null;
  differences: Difference[];
}

function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function reportAsCsv(report: Report): string {
  const header = [
    'head_seq',
    'head_hash',
    'checkpoint_id',
    'checkpoint_root',
    'check',
    'entry',
    'subject',
    'expected',
    'found',
  ];
  const chain = [
    report.head.seq,
    report.head.hash,
    report.checkpoint?.id ?? null,
    report.checkpoint?.root ?? null,
  ];
  const rows = report.differences.length
    ? report.differences.map((difference) => [
        ...chain,
        difference.check,
        difference.entry,
        difference.subject,
        difference.expected,
        difference.found,
      ])
    : [[...chain, null, null, null, null, null]];
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

async function main() {
  const { values } = parseArgs({
    options: {
      'db-url': { type: 'string', default: process.env.DATABASE_URL ?? localStackDatabase },
      format: { type: 'string', default: 'json' },
    },
  });
  if (values.format !== 'json' && values.format !== 'csv') {
    console.error(`--format must be json or csv, not ${values.format}`);
    process.exit(2);
  }
  const client = new pg.Client({ connectionString: values['db-url'] });
  await client.connect();
  try {
    const { rows } = await client.query<{ report: Report }>('select ledger.reconcile() as report');
    const [row] = rows;
    if (!row) throw new Error('ledger.reconcile() answered nothing');
    const report = row.report;
    process.stdout.write(
      values.format === 'csv' ? reportAsCsv(report) : `${JSON.stringify(report, null, 2)}\n`,
    );
    if (report.differences.length > 0) {
      console.error(`${report.differences.length} difference(s) found`);
      process.exitCode = 1;
    }
  } finally {
    await client.end();
  }
}

await main();
