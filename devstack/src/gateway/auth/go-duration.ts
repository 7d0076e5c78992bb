/** Nanoseconds per unit of Go's `time.ParseDuration`. */
const units: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Milliseconds of a Go duration (`"24h"`, `"1h30m"`, `"-1.5s"`), or Go's error text (time/format.go
 * `ParseDuration`), which GoTrue puts in its answer to a bad `ban_duration`.
 */
export function parseGoDuration(text: string): { ms: number } | { error: string } {
  const quoted = JSON.stringify(text);
  const invalid = { error: `time: invalid duration ${quoted}` };
  const sign = text.startsWith('-') ? -1 : 1;
  let rest = text.replace(/^[-+]/, '');
  if (rest === '0') return { ms: 0 };
  if (rest === '') return invalid;
  let total = 0;
  while (rest !== '') {
    const number = rest.match(/^(\d*)(\.\d*)?/)?.[0] ?? '';
    if (number === '' || number === '.') return invalid;
    rest = rest.slice(number.length);
    const unit = rest.match(/^[^\d.]*/)?.[0] ?? '';
    if (unit === '') return { error: `time: missing unit in duration ${quoted}` };
    const scale = units[unit];
    if (scale === undefined)
      return { error: `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}` };
    rest = rest.slice(unit.length);
    total += Number(number) * scale;
  }
  return { ms: sign * total };
}
