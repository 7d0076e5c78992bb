/**
 * The reconciliation report (ledger.reconcile) as the admin page and `npm run ledger:reconcile` both print it:
 * JSON as the database answers, or CSV with the chain head, the checkpoint root and the entries awaiting seal on
 * every row, so two operators compare reports line by line.
 */
export interface ReconciliationDifference {
  check: string;
  /** The entry that caused it; null when none did (a request settled without an entry). */
  entry: number | null;
  subject: string;
  expected: string;
  found: string;
}

export interface ReconciliationReport {
  generated_at: string;
  head: { seq: number; hash: string };
  checkpoint: { id: number; head_seq: number; root: string } | null;
  entries_verified: number;
  /** The chain was verified after this entry: 0 from genesis, else the trusted checkpoint's head. */
  verified_from: number;
  /** The verified checkpoint a run from a checkpoint trusted the entries up to; null from genesis. */
  trusted_checkpoint: { id: number; head_seq: number; head_hash: string; verified_at: string } | null;
  /** Entries committed during the run, not yet in the chain: counted in the books, sealed by the next seal. */
  awaiting_seal: number;
  /** In words: which entries the run verified, which it trusted and on what. */
  scope: string;
  differences: ReconciliationDifference[];
}

const csvHeader = [
  'head_seq',
  'head_hash',
  'checkpoint_id',
  'checkpoint_root',
  'awaiting_seal',
  'check',
  'entry',
  'subject',
  'expected',
  'found',
];

function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row per difference; a clean report is one row with the head, checkpoint and queue and empty findings. */
export function reconciliationCsv(report: ReconciliationReport): string {
  const chain = [
    report.head.seq,
    report.head.hash,
    report.checkpoint?.id ?? null,
    report.checkpoint?.root ?? null,
    report.awaiting_seal,
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
  return [csvHeader, ...rows].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}
