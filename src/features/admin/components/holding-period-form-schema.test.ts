import { describe, expect, it } from 'vitest';
import { HOLDING_PERIOD_RANGE_MESSAGE } from '../api/admin-messages';
import { holdingPeriodFormSchema } from './holding-period-form-schema';

const messageFor = (days: string) => holdingPeriodFormSchema.safeParse({ days }).error?.issues[0]?.message;

describe('the holding period form', () => {
  it('takes whole days from 1 to 3660, spaces around them ignored', () => {
    expect(holdingPeriodFormSchema.parse({ days: ' 365 ' })).toEqual({ days: '365' });
    expect(holdingPeriodFormSchema.parse({ days: '1' })).toEqual({ days: '1' });
    expect(holdingPeriodFormSchema.parse({ days: '3660' })).toEqual({ days: '3660' });
  });

  it('refuses 0, more than ten years, fractions, negatives and blanks with the range message', () => {
    for (const days of ['0', '3661', '365.5', '-1', '', 'a year']) {
      expect(messageFor(days)).toBe(HOLDING_PERIOD_RANGE_MESSAGE);
    }
  });
});
