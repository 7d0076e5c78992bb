import { describe, expect, it } from 'vitest';
import { describeSchedule } from './describe-schedule';

const base = { day_of_week: null, day_of_month: null, time_of_day: '09:00:00', time_zone: 'Europe/Berlin' };

describe('describeSchedule', () => {
  it('says a daily buy with its time and zone', () => {
    expect(describeSchedule({ ...base, frequency: 'daily' })).toBe('Every day at 09:00 (Europe/Berlin)');
  });

  it('names the weekday of a weekly buy', () => {
    expect(describeSchedule({ ...base, frequency: 'weekly', day_of_week: 7 })).toBe(
      'Every Sunday at 09:00 (Europe/Berlin)',
    );
  });

  it('says a twice-monthly buy falls on the 1st and the 15th', () => {
    expect(describeSchedule({ ...base, frequency: 'twice_monthly' })).toBe(
      'On the 1st and the 15th at 09:00 (Europe/Berlin)',
    );
  });

  it('warns that a day past 28 falls on a shorter month’s last day', () => {
    expect(describeSchedule({ ...base, frequency: 'monthly', day_of_month: 31 })).toBe(
      'Monthly on the 31st (or the month’s last day) at 09:00 (Europe/Berlin)',
    );
    expect(describeSchedule({ ...base, frequency: 'monthly', day_of_month: 12 })).toBe(
      'Monthly on the 12th at 09:00 (Europe/Berlin)',
    );
  });
});
