import { describe, expect, it } from 'vitest';
import { depositFormSchema } from './deposit-form-schema';

function messagesFor(userId: string, amount: string): string[] {
  const result = depositFormSchema.safeParse({ userId, amount });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('the admin deposit rules', () => {
  it('needs a user and an amount of at least 0.01', () => {
    expect(messagesFor('', '')).toEqual(['User is required', 'Amount must be greater than 0']);
    expect(messagesFor('some-user', '0')).toEqual(['Amount must be greater than 0']);
    expect(messagesFor('some-user', '0.009')).toEqual(['Amount must be greater than 0']);
  });

  it('refuses 10.555 before any confirmation, which would show it rounded to $10.56', () => {
    expect(messagesFor('some-user', '10.555')).toEqual(['Amount can have at most 2 decimal places']);
    expect(messagesFor('some-user', '10.55')).toEqual([]);
  });

  it('accepts 0.01 and more', () => {
    expect(messagesFor('some-user', '0.01')).toEqual([]);
    expect(messagesFor('some-user', '2500')).toEqual([]);
  });
});
