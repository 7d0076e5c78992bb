import type { RecurringBuy } from '../api/get-recurring-buys';

const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const ordinal = (day: number) => {
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  return `${day}${suffix}`;
};

/** "Every Monday at 09:00 (Europe/Berlin)", the schedule as the person chose it. */
export function describeSchedule(
  schedule: Pick<RecurringBuy, 'frequency' | 'day_of_week' | 'day_of_month' | 'time_of_day' | 'time_zone'>,
): string {
  const when =
    schedule.frequency === 'weekly'
      ? `Every ${weekdays[(schedule.day_of_week ?? 1) - 1]}`
      : schedule.frequency === 'twice_monthly'
        ? 'On the 1st and the 15th'
        : schedule.frequency === 'monthly'
          ? `Monthly on the ${ordinal(schedule.day_of_month ?? 1)}${(schedule.day_of_month ?? 1) > 28 ? ' (or the month’s last day)' : ''}`
          : 'Every day';
  return `${when} at ${schedule.time_of_day.slice(0, 5)} (${schedule.time_zone})`;
}

export { weekdays };
