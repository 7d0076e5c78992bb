/**
 * What every CoinVault hash chain shares (the journal's entries, each person's security log; docs/architecture.md):
 * SHA-256 over a canonical JSON text, the canonical moment, and the link checks — a gapless sequence from 1, each
 * entry naming its predecessor's hash (32 zero bytes before the first), each hash matching its contents. Web Crypto
 * only, so the browser checks a chain without sending anything.
 */

/** The hash the first entry names as its predecessor: 32 zero bytes. */
export const GENESIS_HASH = '0'.repeat(64);

export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A `bytea` as PostgREST and node-postgres text show it (`\x…`), or plain hex, as lowercase hex. */
export const hexOfBytea = (value: string) => value.replace(/^\\x/, '').toLowerCase();

const TIMESTAMP = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d(?::?\d\d)?)$/;

/**
 * A timestamp as PostgreSQL or PostgREST write it (any zone, trailing fraction zeros dropped) in the canonical
 * form of `ledger.canonical_time`: UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`. The microseconds are kept as written
 * (a JavaScript Date holds milliseconds only).
 */
export function canonicalTime(timestamp: string): string {
  const parts = TIMESTAMP.exec(timestamp.trim());
  if (!parts) throw new Error(`${timestamp} is not a timestamp with a time zone`);
  const [, day, time, fraction = '', zone = 'Z'] = parts;
  const offset =
    zone === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.replace(/^([+-]\d\d)(\d\d)$/, '$1:$2');
  const seconds = new Date(`${day}T${time}${offset}`).toISOString().slice(0, 19);
  return `${seconds}.${fraction.padEnd(6, '0')}Z`;
}

export interface ChainLink {
  seq: number;
  /** Lowercase hex. */
  prevHash: string;
  hash: string;
  /** The entry's canonical text, rebuilt from its contents. */
  canonical: string;
}

export interface ChainBreak {
  seq: number;
  problem: 'entries missing' | 'previous hash differs' | 'hash differs from contents';
}

/** Every broken link of a chain given in order of `seq`; none for an intact chain. */
export async function findChainBreaks(links: readonly ChainLink[]): Promise<ChainBreak[]> {
  const breaks: ChainBreak[] = [];
  let previous = { seq: 0, hash: GENESIS_HASH };
  for (const link of links) {
    if (link.seq !== previous.seq + 1) breaks.push({ seq: link.seq, problem: 'entries missing' });
    else if (link.prevHash !== previous.hash)
      breaks.push({ seq: link.seq, problem: 'previous hash differs' });
    if ((await sha256Hex(link.canonical)) !== link.hash)
      breaks.push({ seq: link.seq, problem: 'hash differs from contents' });
    previous = link;
  }
  return breaks;
}
