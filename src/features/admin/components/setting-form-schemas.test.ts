import { describe, expect, it } from 'vitest';
import { HOLDING_PERIOD_RANGE_MESSAGE, SECURITY_HOLD_RANGE_MESSAGE } from '../api/admin-messages';
import { holdingPeriodFormSchema, securityHoldFormSchema } from './setting-form-schemas';

const messageFor = (schema: typeof holdingPeriodFormSchema, value: string) =>
  schema.safeParse({ value }).error?.issues[0]?.message;

describe('the holding period form', () => {
  it('takes whole days from 1 to 3660, spaces around them ignored', () => {
    expect(holdingPeriodFormSchema.parse({ value: ' 365 ' })).toEqual({ value: '365' });
    expect(holdingPeriodFormSchema.parse({ value: '1' })).toEqual({ value: '1' });
    expect(holdingPeriodFormSchema.parse({ value: '3660' })).toEqual({ value: '3660' });
  });

  it('refuses 0, more than ten years, fractions, negatives and blanks with the range message', () => {
    for (const days of ['0', '3661', '365.5', '-1', '', 'a year']) {
      expect(messageFor(holdingPeriodFormSchema, days)).toBe(HOLDING_PERIOD_RANGE_MESSAGE);
    }
  });
});

describe('the security hold form', () => {
  it('takes whole hours from 0 (no hold) to 720', () => {
    expect(securityHoldFormSchema.parse({ value: '0' })).toEqual({ value: '0' });
    expect(securityHoldFormSchema.parse({ value: ' 720 ' })).toEqual({ value: '720' });
  });

  it('says a fraction is not whole and 721 is out of range', () => {
    expect(messageFor(securityHoldFormSchema, '1.5')).toBe('Hours must be a whole number');
    expect(messageFor(securityHoldFormSchema, '721')).toBe(SECURITY_HOLD_RANGE_MESSAGE);
  });
});
