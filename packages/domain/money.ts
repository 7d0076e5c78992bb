/**
 * Money as a person reads it: US dollars in their locale (the browser's own; tests pass one), so an amount
 * reads the same on a screen, a chart's axis, a limit's message and a printed statement. CSV files take the
 * plain-number variant instead, which a spreadsheet reads as a number in any locale.
 */

/**
 * How many digits an amount shows: `cents` for balances and prices (`$30,000.00`), `whole` for market caps
 * (`$1,897,750,931,748`), `compact` for a chart's axis (`$1.50K`), `bound` for a limit in a message (`$10`,
 * `$1,000.5`: at most the cents, no trailing zeros, as the database's refusals write it).
 */
export type UsdPrecision = 'cents' | 'whole' | 'compact' | 'bound';

const precisions: Record<UsdPrecision, Intl.NumberFormatOptions> = {
  cents: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  whole: { maximumFractionDigits: 0 },
  compact: { notation: 'compact', maximumFractionDigits: 2 },
  bound: { minimumFractionDigits: 0, maximumFractionDigits: 2 },
};

// Intl.NumberFormat is costly to build and tables format hundreds of cells, so each one is built once.
const formats = new Map<string, Intl.NumberFormat>();

/**
 * US dollars in the person's locale (or `locale`): `$30,000.00` in en-US, `30.000,00 $` in de-DE. The sign is
 * always `$` (never en-GB's `US$`), as in the database's messages, so one screen never shows both.
 */
export function formatUsd(
  value: number,
  { locale, precision = 'cents' }: { locale?: string; precision?: UsdPrecision } = {},
): string {
  const key = `${locale ?? ''}|${precision}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'USD',
      currencyDisplay: 'narrowSymbol',
      ...precisions[precision],
    });
    formats.set(key, format);
  }
  return format.format(value);
}

/**
 * CSV's plain-number rule: no currency sign, no thousands separators, a point and always the cents
 * (`1234.5` → `1234.50`), whatever the person's locale.
 */
export function formatUsdPlain(value: number): string {
  return value.toFixed(2);
}
