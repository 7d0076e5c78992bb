/**
 * Number formatting shared by every screen, so a price or a balance reads the same everywhere.
 * `locale` defaults to the visitor's own (the specification asks for locale thousands separators);
 * tests pass one explicitly.
 */

type Locale = string | undefined;

// Money has one formatter, the domain module's, which the limits' messages use too.
export { formatUsd, formatUsdPlain } from '@domain/money.ts';

/**
 * A percentage with exactly 2 decimals and a percent sign: `1.50%`, `-2.10%` (24h change). A fall too
 * small to show is `0.00%`, never `-0.00%`.
 */
export function formatPercent(value: number): string {
  const shown = value.toFixed(2);
  return `${shown === '-0.00' ? '0.00' : shown}%`;
}

/** A crypto quantity with 8 decimals: `0.03333333` (converter results and buy estimates). */
export function formatCryptoAmount(value: number): string {
  return value.toFixed(8);
}

/**
 * Whether a 24h change counts as a rise: zero is shown as a rise (green, up arrow), and so is a fall
 * that shows as `0.00%`, so colour and arrow always agree with the number.
 */
export function isPriceRise(changePercent: number): boolean {
  return Number(changePercent.toFixed(2)) >= 0;
}

type DateInput = string | Date;

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(locale: Locale, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${locale ?? ''}|${timeZone ?? ''}|${JSON.stringify(options)}`;
  let formatter = dateTimeFormats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    dateTimeFormats.set(key, formatter);
  }
  return formatter;
}

const dateOptions: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const timeOptions: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };

/**
 * The one way the app writes a moment, in the viewer's time zone and named with it, so two lists never
 * disagree: the date `Nov 24, 2026` and the time `05:20 AM UTC` (`24 Nov 2026` and `05:20 UTC` in en-GB).
 * `timeZone` is for tests.
 */
export function formatDate(value: DateInput, locale?: Locale, timeZone?: string): string {
  return dateTimeFormat(locale, timeZone, dateOptions).format(new Date(value));
}

/** The time of day with its time zone: `05:20 AM UTC`. */
export function formatTime(value: DateInput, locale?: Locale, timeZone?: string): string {
  return dateTimeFormat(locale, timeZone, timeOptions).format(new Date(value));
}

/** Date and time on one line: `Nov 24, 2026, 05:20 AM UTC`. */
export function formatDateTime(value: DateInput, locale?: Locale, timeZone?: string): string {
  return dateTimeFormat(locale, timeZone, { ...dateOptions, ...timeOptions }).format(new Date(value));
}

/**
 * A status as every list writes it, whatever case it was stored in: the first letter capital, the rest
 * small (`pending`, `Pending` and `PENDING` all read `Pending`; `on hold` reads `On hold`).
 */
export function formatStatus(status: string): string {
  const lower = status.trim().toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
