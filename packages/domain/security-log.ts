import { canonicalTime, findChainBreaks, hexOfBytea, type ChainBreak } from './hash-chain.ts';

/**
 * A person's security log entry as the database stores it (`public.security_log`) and its canonical form
 * (docs/architecture.md, "The security log"), so the person checks their chain in the browser.
 */
export interface SecurityLogEntry {
  user_id: string;
  seq: number;
  recorded_at: string;
  event: string;
  detail: string;
  ip: string | null;
  user_agent: string | null;
  /** `bytea`: `\x…` as PostgREST answers, or hex. */
  prev_hash: string;
  hash: string;
}

export function canonicalSecurityEvent(entry: SecurityLogEntry): string {
  return JSON.stringify([
    'coinvault-security-log-v1',
    entry.user_id,
    entry.seq,
    hexOfBytea(entry.prev_hash),
    canonicalTime(entry.recorded_at),
    entry.event,
    entry.detail,
    entry.ip,
    entry.user_agent,
  ]);
}

/** The broken links of one person's whole log, given oldest first; none when it is intact. */
export function verifySecurityLog(entries: readonly SecurityLogEntry[]): Promise<ChainBreak[]> {
  return findChainBreaks(
    entries.map((entry) => ({
      seq: entry.seq,
      prevHash: hexOfBytea(entry.prev_hash),
      hash: hexOfBytea(entry.hash),
      canonical: canonicalSecurityEvent(entry),
    })),
  );
}
