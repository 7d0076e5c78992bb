/** The current tax year (the calendar year) in an IANA time zone. */
export function taxYearIn(timeZone: string, now = new Date()): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(now));
}
