import { describe, expect, it } from 'vitest';
import { hasAtMostTwoDecimalPlaces } from './amounts.ts';

describe('the two-decimal rule for dollar amounts', () => {
  it.each([10, 10.1, 10.5, 10.55, 0.01, 19.99, 1234567.89])('takes %s', (amount) => {
    expect(hasAtMostTwoDecimalPlaces(amount)).toBe(true);
  });

  it.each([10.005, 10.555, 0.001, 1234567.891])('refuses %s', (amount) => {
    expect(hasAtMostTwoDecimalPlaces(amount)).toBe(false);
  });
});
