/** Calendar days as date inputs give them (`2026-11-24`), read in the viewer's own time zone. */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the text is a real calendar day (`2026-02-30` is not). */
export function isCalendarDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** The first instant of a calendar day in the viewer's time zone, as the timestamp the server compares. */
export function startOfDay(day: string, addDays = 0): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + addDays).toISOString();
}

/** A local calendar day as a date input writes it. */
export function calendarDayOf(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
