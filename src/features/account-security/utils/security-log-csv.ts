import type { SecurityLogEntry } from '@domain/security-log.ts';
import { hexOfBytea } from '@domain/hash-chain.ts';
import { toCsv, type CsvColumn } from '@/lib/csv';

/**
 * The log as CSV, oldest first, with every field its hash covers (the time as stored, the hashes in hex), so
 * the chain can be checked again from the file alone (docs/architecture.md, "The security log").
 */
const columns: CsvColumn<SecurityLogEntry>[] = [
  { header: 'Entry', value: (entry) => entry.seq },
  { header: 'Time', value: (entry) => entry.recorded_at },
  { header: 'Event', value: (entry) => entry.event },
  { header: 'What happened', value: (entry) => entry.detail },
  { header: 'Address', value: (entry) => entry.ip },
  { header: 'Device (user agent)', value: (entry) => entry.user_agent },
  { header: 'Previous hash', value: (entry) => hexOfBytea(entry.prev_hash) },
  { header: 'Hash', value: (entry) => hexOfBytea(entry.hash) },
];

export const securityLogCsv = (entries: readonly SecurityLogEntry[]) => toCsv(columns, entries);
