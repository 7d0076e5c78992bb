import { describe, expect, it } from 'vitest';
import { limitsFormSchema } from './limits-form-schema';

function messagesFor(minAmount: string, maxAmount: string): string[] {
  const result = limitsFormSchema.safeParse({ minAmount, maxAmount });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('the limits settings rules', () => {
  it('accepts a minimum below the maximum', () => {
    expect(messagesFor('10', '10000')).toEqual([]);
    expect(messagesFor('0', '0.01')).toEqual([]);
  });

  it('refuses a minimum equal to or above the maximum', () => {
    expect(messagesFor('500', '100')).toEqual(['Minimum amount must be less than maximum amount']);
    expect(messagesFor('100', '100')).toEqual(['Minimum amount must be less than maximum amount']);
  });

  it('refuses negative amounts', () => {
    expect(messagesFor('-1', '100')).toEqual(['Amounts cannot be negative']);
    expect(messagesFor('1', '-100')).toEqual(['Amounts cannot be negative']);
  });

  it('refuses a third decimal with the two-decimal rule every amount field uses, not a generic failure', () => {
    expect(messagesFor('10.555', '100')).toEqual(['Amount can have at most 2 decimal places']);
    expect(messagesFor('10', '100.001')).toEqual(['Amount can have at most 2 decimal places']);
  });
});
