import { describe, expect, it } from 'vitest';
import { INSUFFICIENT_BALANCE_MESSAGE, writeFailureMessage } from './admin-messages';

describe('the message shown for a failed admin write', () => {
  const fallback = 'Failed to process buy request. Please try again.';

  it('is the database’s own words when they are one the specification shows', () => {
    expect(
      writeFailureMessage({ message: 'Insufficient balance' }, fallback, [INSUFFICIENT_BALANCE_MESSAGE]),
    ).toBe('Insufficient balance');
  });

  it('is the page’s failure text for anything else, so internals never reach the screen', () => {
    expect(
      writeFailureMessage({ message: 'Request has already been decided' }, fallback, [
        INSUFFICIENT_BALANCE_MESSAGE,
      ]),
    ).toBe(fallback);
    expect(
      writeFailureMessage(new TypeError('Failed to fetch'), fallback, [INSUFFICIENT_BALANCE_MESSAGE]),
    ).toBe(fallback);
    expect(writeFailureMessage(null, fallback, [])).toBe(fallback);
  });
});
