/**
 * Exact decimal arithmetic for the gains report: the database answers amounts and quantities as decimal
 * strings, and the report adds cents and shows quantities to 8 places without a binary float in between
 * (docs/features.md, "Cost basis": rounding).
 */

/** `-12.3` → -1230n: USD with at most 2 decimals (what the database answers) as whole cents. */
export function toCents(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -cents : cents;
}

/** -1230n → `-12.30`: whole cents as a plain number with 2 decimals. */
export function centsToText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const size = cents < 0n ? -cents : cents;
  return `${sign}${size / 100n}.${(size % 100n).toString().padStart(2, '0')}`;
}

/** A quantity to 8 places, rounded half up (away from zero): `0.123456785` → `0.12345679`. */
export function quantityTo8(quantity: string): string {
  const negative = quantity.startsWith('-');
  const [whole = '0', fraction = ''] = quantity.replace('-', '').split('.');
  const units = BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 8));
  const rounded = Number(fraction.padEnd(9, '0')[8]) >= 5 ? units + 1n : units;
  const text = `${rounded / 100_000_000n}.${(rounded % 100_000_000n).toString().padStart(8, '0')}`;
  return negative && rounded > 0n ? `-${text}` : text;
}
