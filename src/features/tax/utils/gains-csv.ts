import { toCsv, type CsvColumn } from '@/lib/csv';
import type { GainLine } from '../api/get-realised-gains';
import { centsToText, quantityTo8, toCents } from '@/lib/decimal';

/** Totals of a report, in cents: all, and short-term and long-term apart. */
export interface GainTotals {
  proceeds: bigint;
  costBasis: bigint;
  gain: bigint;
  shortTermGain: bigint;
  longTermGain: bigint;
}

export function gainTotals(lines: readonly GainLine[]): GainTotals {
  const sum = (pick: (line: GainLine) => string, keep: (line: GainLine) => boolean = () => true) =>
    lines.filter(keep).reduce((total, line) => total + toCents(pick(line)), 0n);
  return {
    proceeds: sum((line) => line.proceeds),
    costBasis: sum((line) => line.costBasis),
    gain: sum((line) => line.gain),
    shortTermGain: sum(
      (line) => line.gain,
      (line) => line.term !== 'long',
    ),
    longTermGain: sum(
      (line) => line.gain,
      (line) => line.term === 'long',
    ),
  };
}

/** A row of the CSV: a line as the report shows it, or the totals (no dates, term, method or ids). */
type CsvRow = Record<
  | 'cryptocurrency'
  | 'dateAcquired'
  | 'dateSold'
  | 'quantity'
  | 'proceeds'
  | 'costBasis'
  | 'gain'
  | 'term'
  | 'method'
  | 'saleId'
  | 'lotId',
  string | null
>;

const cell = (key: keyof CsvRow) => (row: CsvRow) => row[key];
/** The report's columns, in order, as the page and docs/features.md name them. */
const columns: CsvColumn<CsvRow>[] = [
  { header: 'Cryptocurrency', value: cell('cryptocurrency') },
  { header: 'Date acquired', value: cell('dateAcquired') },
  { header: 'Date sold', value: cell('dateSold') },
  { header: 'Quantity', value: cell('quantity') },
  { header: 'Proceeds (USD)', value: cell('proceeds') },
  { header: 'Cost basis (USD)', value: cell('costBasis') },
  { header: 'Gain or loss (USD)', value: cell('gain') },
  { header: 'Term', value: cell('term') },
  { header: 'Method', value: cell('method') },
  { header: 'Sale ID', value: cell('saleId') },
  { header: 'Lot ID', value: cell('lotId') },
];
export const gainsColumnNames = columns.map((column) => column.header);

const usd = (amount: string) => centsToText(toCents(amount));

/**
 * The gains report as CSV: one row per part of a sale (each lot it consumed), oldest sale first, then a
 * Total row with the sums of proceeds, cost basis and gain; amounts as plain numbers with cents, quantities
 * to 8 places, days in the person's tax time zone.
 */
export function gainsCsv(lines: readonly GainLine[]): string {
  const totals = gainTotals(lines);
  const rows: CsvRow[] = lines.map((line) => ({
    ...line,
    quantity: quantityTo8(line.quantity),
    proceeds: usd(line.proceeds),
    costBasis: usd(line.costBasis),
    gain: usd(line.gain),
  }));
  rows.push({
    cryptocurrency: 'Total',
    dateAcquired: null,
    dateSold: null,
    quantity: null,
    proceeds: centsToText(totals.proceeds),
    costBasis: centsToText(totals.costBasis),
    gain: centsToText(totals.gain),
    term: null,
    method: null,
    saleId: null,
    lotId: null,
  });
  return toCsv(columns, rows);
}

/** `gains-2025.csv` */
export const gainsFileName = (taxYear: number) => `gains-${taxYear}.csv`;
