import { calendarDayOf, isCalendarDay } from '@/lib/calendar-day';
import type { StatementPeriod } from '../api/get-statement';
import { PERIOD_ORDER_MESSAGE } from '../api/statements-messages';

/** This month so far: its first day to today. */
export function thisMonth(today = new Date()): StatementPeriod {
  return {
    from: calendarDayOf(new Date(today.getFullYear(), today.getMonth(), 1)),
    to: calendarDayOf(today),
  };
}

/** What is wrong with a period, if anything. */
export function periodProblem({ from, to }: StatementPeriod): string | undefined {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return 'Choose a start and an end date';
  if (from > to) return PERIOD_ORDER_MESSAGE;
  return undefined;
}
