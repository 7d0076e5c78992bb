import { describe, expect, it } from 'vitest';
import { limitsFormSchema } from './limits-form-schema';

function messagesFor(minAmount: string, maxAmount: string, secondAdminAbove = '1000'): string[] {
  const result = limitsFormSchema.safeParse({ minAmount, maxAmount, secondAdminAbove });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

function fieldsRefusedFor(secondAdminAbove: string): string[] {
  const result = limitsFormSchema.safeParse({ minAmount: '10', maxAmount: '10000', secondAdminAbove });
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
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

  it('takes the second-admin threshold as a USD amount of 0 or more, above the maximum too', () => {
    expect(messagesFor('10', '10000', '1000')).toEqual([]);
    expect(messagesFor('10', '10000', '0')).toEqual([]);
    expect(messagesFor('10', '10000', '25000.50')).toEqual([]);
  });

  it('refuses a second-admin threshold that is missing, negative, not a number or has a third decimal', () => {
    expect(messagesFor('10', '10000', '')).toEqual(['Amount is required']);
    expect(messagesFor('10', '10000', '-1')).toEqual(['Amounts cannot be negative']);
    expect(messagesFor('10', '10000', 'lots')).toContain('Amount must be a number');
    expect(messagesFor('10', '10000', '1000.005')).toEqual(['Amount can have at most 2 decimal places']);
    expect(fieldsRefusedFor('-1')).toEqual(['secondAdminAbove']);
  });
});
