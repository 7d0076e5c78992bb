import { describe, expect, it } from 'vitest';
import { isMoneyGateRefusal } from './money-gate.ts';

describe("the money gate's refusals as the person reads them", () => {
  it.each([
    'Buying and selling are locked because you reported a change you did not make. Contact support to unlock them.',
    'Withdrawals are locked because you reported a change you did not make. Contact support to unlock them.',
    'Withdrawals are on hold until 27 Nov 2026, 15:04 UTC because your password was changed. To end the hold ' +
      'sooner, contact support.',
  ])('are recognised: "%s"', (message) => {
    expect(isMoneyGateRefusal(message)).toBe(true);
  });

  it.each([
    'Failed to submit buy request. Please try again.',
    'Minimum transaction amount is $10',
    'Not approved. Locked: this person reported a change they did not make ("this wasn\'t me").',
    'permission denied for table buy_requests',
  ])('are not confused with other failures: "%s"', (message) => {
    expect(isMoneyGateRefusal(message)).toBe(false);
  });
});
