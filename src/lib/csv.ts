/**
 * CSV exports (RFC 4180): a header row naming each column, amounts in CSV's plain-number variant of the money
 * formatter (`formatUsdPlain`: no currency sign, no thousands separators), timestamps in ISO 8601 with their zone (the column's header naming it), CRLF line ends.
 */

export interface CsvColumn<Item> {
  header: string;
  value: (item: Item) => string | number | null;
}

/** Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return) is prefixed with `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<Item>(columns: readonly CsvColumn<Item>[], items: readonly Item[]): string {
  const lines = [
    columns.map((column) => csvCell(column.header)).join(','),
    ...items.map((item) => columns.map((column) => csvCell(column.value(item))).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** A timestamp in UTC, to the second: `2026-11-24T05:20:21Z`. */
export const csvUtcTime = (timestamp: string) => new Date(timestamp).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A timestamp in the given IANA time zone, to the second, with its offset from UTC:
 * `2026-11-24T06:20:21+01:00` in Europe/Berlin.
 */
export function csvLocalTime(timestamp: string, timeZone: string): string {
  const instant = new Date(timestamp);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map(({ type, value }) => [type, value]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;
  const wallClock = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMinutes = Math.round((wallClock - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${sign}${hours}:${minutes}`;
}

/** Saves CSV text as a file through the browser's download. */
export function downloadCsv(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** The file name of an export: the list and the moment, e.g. `buy-requests-2026-11-24T052021Z.csv`. */
export function csvFileName(list: string, now = new Date()): string {
  return `${list}-${now
    .toISOString()
    .replace(/[:-]|\.\d{3}/g, '')
    .replace(/^(\d{4})(\d{2})(\d{2})/, '$1-$2-$3')}.csv`;
}

/** The first columns of a request's or transaction's row: when it was made (UTC) and whose it is. */
export function whenAndWhoColumns<
  Item extends { date: string; userName: string; email: string },
>(): CsvColumn<Item>[] {
  return [
    { header: 'Date (UTC)', value: (item) => csvUtcTime(item.date) },
    { header: 'Name', value: (item) => item.userName },
    { header: 'E-mail', value: (item) => item.email },
  ];
}
