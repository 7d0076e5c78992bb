import { formatUsd } from './money.ts';

/**
 * The global transaction limits and their messages. The database applies the same limits again under its
 * lock (`private.assert_within_limits`) and refuses with the same words, so a refusal from either side reads
 * the same.
 */
export interface TransactionLimits {
  minAmount: number;
  maxAmount: number;
}

/**
 * Whether an admin has set the limits (0 to 0 means not yet): until then nothing checks bounds, the browser
 * nor the database.
 */
export function limitsAreSet(limits: TransactionLimits): boolean {
  return limits.maxAmount > 0;
}

export const LIMITS_LOAD_FAILED_MESSAGE = 'Failed to load transaction limits';
export const LIMITS_ORDER_MESSAGE = 'Minimum amount must be less than maximum amount';
export const LIMITS_NEGATIVE_MESSAGE = 'Amounts cannot be negative';

/**
 * What an amount is checked as: a form field ('Minimum amount is $10'), a buy on submit and in the database
 * ('Minimum transaction amount is $10'), a withdrawal on submit and in the database ('Minimum withdrawal…').
 */
export type LimitedAmount = 'amount' | 'transaction amount' | 'withdrawal amount';

/** A dollar bound as the messages write it: thousands separators, at most 2 decimals, no trailing zeros. */
const dollars = (value: number) => formatUsd(value, { precision: 'bound' });

export function minimumMessage(minimum: number, what: LimitedAmount = 'amount'): string {
  return `Minimum ${what} is ${dollars(minimum)}`;
}

export function maximumMessage(maximum: number, what: LimitedAmount = 'amount'): string {
  return `Maximum ${what} is ${dollars(maximum)}`;
}

/** The message for an amount outside the limits, or undefined when it is within them (or none are set). */
export function outsideLimitsMessage(
  amount: number,
  limits: TransactionLimits,
  what: LimitedAmount = 'amount',
): string | undefined {
  if (!limitsAreSet(limits)) return undefined;
  if (amount < limits.minAmount) return minimumMessage(limits.minAmount, what);
  if (amount > limits.maxAmount) return maximumMessage(limits.maxAmount, what);
  return undefined;
}

/** Whether a refusal from the database is its limits check, whose words the person should read as they are. */
export function isLimitRefusal(message: string): boolean {
  return /^(Minimum|Maximum) (transaction|withdrawal) amount is \$[\d,.]+$/.test(message);
}
