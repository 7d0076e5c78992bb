import { coinName } from '@domain/coins.ts';
import { csvLocalTime, toCsv, type CsvColumn } from '@/lib/csv';
import { formatUsdPlain } from '@/lib/format';
import type { StatementEntry, StatementPeriod } from '../api/get-statement';

/** The statement's columns, in order, as the card and docs/features.md name them. */
export const statementColumnNames = [
  'Date',
  'Type',
  'Status',
  'Cryptocurrency',
  'Quantity',
  'Price (USD)',
  'Amount (USD)',
  'Balance (USD)',
  'Transaction ID',
] as const;

/**
 * The statement as CSV: one row per transaction, oldest first; times in the person's time zone with
 * their offset (the Date header names the zone), coins by the names the app shows, amounts as plain numbers
 * with cents, quantities with 8 decimals, the balance after each entry, ids as they are.
 */
export function statementCsv(entries: readonly StatementEntry[], timeZone: string): string {
  const columns: CsvColumn<StatementEntry>[] = [
    { header: `Date (${timeZone})`, value: (entry) => csvLocalTime(entry.date, timeZone) },
    { header: 'Type', value: (entry) => entry.type },
    { header: 'Status', value: (entry) => entry.status },
    {
      header: 'Cryptocurrency',
      value: (entry) => (entry.cryptocurrency === null ? '' : coinName(entry.cryptocurrency)),
    },
    { header: 'Quantity', value: (entry) => (entry.quantity === null ? '' : entry.quantity.toFixed(8)) },
    { header: 'Price (USD)', value: (entry) => (entry.price === null ? '' : formatUsdPlain(entry.price)) },
    { header: 'Amount (USD)', value: (entry) => formatUsdPlain(entry.amount) },
    { header: 'Balance (USD)', value: (entry) => formatUsdPlain(entry.balance) },
    { header: 'Transaction ID', value: (entry) => entry.id },
  ];
  return toCsv(columns, entries);
}

/** `statement-2026-11-01-to-2026-11-24.csv` */
export const statementFileName = ({ from, to }: StatementPeriod) => `statement-${from}-to-${to}.csv`;

/** The person's IANA time zone, as the browser knows it. */
export const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
