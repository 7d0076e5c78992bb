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

  it('accepts 0.01 and more', () => {
    expect(messagesFor('some-user', '0.01')).toEqual([]);
    expect(messagesFor('some-user', '2500')).toEqual([]);
  });
});
