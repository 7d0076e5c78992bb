/**
 * The checks a bank payout's numbers can carry: an IBAN (length per country and mod-97 check digits, ISO 13616),
 * a US domestic account number (digits only; it has no check digit), an ABA routing number (9 digits with its
 * weighted checksum) and a SWIFT/BIC code (ISO 9362 structure; whether the bank exists cannot be checked here).
 * Each check answers the message to show, or undefined when the value passes.
 */

/** IBAN length by country, from the SWIFT IBAN registry. */
const ibanLengths: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** US account numbers run up to 17 digits (the ACH limit); fewer than 6 is no real account. */
export const domesticAccountDigits = { min: 6, max: 17 } as const;

export const ACCOUNT_NUMBER_FORMAT_MESSAGE = `Account number must be an IBAN or ${domesticAccountDigits.min} to ${domesticAccountDigits.max} digits`;
export const DOMESTIC_ACCOUNT_UNCHECKED_MESSAGE =
  'Account number is a domestic number without check digits: confirm it with the person';

/** How people type these numbers: in groups, separated by spaces or hyphens, in either case. */
export function compactBankNumber(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

export function looksLikeIban(compact: string): boolean {
  return /^[A-Z]{2}\d{2}/.test(compact);
}

/** ISO 7064 mod 97-10 over the IBAN with its first four characters moved to the end, letters as 10–35. */
function ibanCheckDigitsMatch(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = Number.parseInt(character, 36);
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/** An account number, compacted: an IBAN or a domestic number of digits only. */
export function accountNumberProblem(compact: string): string | undefined {
  if (/^\d+$/.test(compact)) {
    const { min, max } = domesticAccountDigits;
    return compact.length >= min && compact.length <= max ? undefined : ACCOUNT_NUMBER_FORMAT_MESSAGE;
  }
  if (!looksLikeIban(compact) || !/^[A-Z0-9]+$/.test(compact)) return ACCOUNT_NUMBER_FORMAT_MESSAGE;
  const country = compact.slice(0, 2);
  const length = ibanLengths[country];
  if (length === undefined) return `Account number: ${country} is not a country that issues IBANs`;
  if (compact.length !== length) return `Account number: an IBAN from ${country} has ${length} characters`;
  return ibanCheckDigitsMatch(compact)
    ? undefined
    : 'Account number is not a valid IBAN (check digits do not match)';
}

/** ABA routing number: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10. */
export function routingNumberProblem(compact: string): string | undefined {
  if (!/^\d{9}$/.test(compact)) return 'Routing number must be 9 digits';
  const weights = [3, 7, 1];
  const sum = [...compact].reduce(
    (total, digit, index) => total + Number(digit) * (weights[index % 3] ?? 0),
    0,
  );
  return sum % 10 === 0 ? undefined : 'Routing number is not valid';
}

/** SWIFT/BIC: bank (4 letters), country (2 letters), location (2 letters or digits), optional branch (3). */
export function swiftCodeProblem(compact: string): string | undefined {
  if (compact.length !== 8 && compact.length !== 11) return 'SWIFT code must be 8 or 11 characters';
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(compact)
    ? undefined
    : 'SWIFT code is not valid: 4 letters for the bank, 2 for the country, then 2 or 5 letters or digits';
}
