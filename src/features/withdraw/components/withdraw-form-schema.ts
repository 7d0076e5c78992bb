import { z } from 'zod';
import {
  withdrawalAmountSchema,
  withdrawalRequestSchema,
  type WithdrawalField,
  type WithdrawMethod,
} from '@domain/withdrawal.ts';
import { limitsAreSet, maximumMessage, minimumMessage, type TransactionLimits } from '@domain/limits.ts';

/** What bounds a withdrawal right now: the global limits and the available balance. */
export interface WithdrawAllowance {
  limits: TransactionLimits;
  available: number;
}

/** What the form holds while a person types: text, and no method until one is chosen. */
export interface WithdrawFormValues {
  amount: string;
  /** A saved destination of the address book; '' for details typed below. */
  destinationId?: string;
  withdrawMethod: WithdrawMethod | '';
  details: Partial<Record<WithdrawalField, string>>;
}

/** The specification's maximum: the lesser of the available balance and the global maximum. */
export function maximumWithdrawal({ limits, available }: WithdrawAllowance): number {
  return limitsAreSet(limits) ? Math.min(available, limits.maxAmount) : available;
}

/** The typed amount, bounded by the limits ('Minimum amount is $X') and the allowance ('Maximum amount is $X'). */
function typedAmountSchema(allowance: WithdrawAllowance) {
  const { minAmount } = allowance.limits;
  const maximum = maximumWithdrawal(allowance);
  const boundedAmount = (
    limitsAreSet(allowance.limits)
      ? withdrawalAmountSchema.min(minAmount, minimumMessage(minAmount))
      : withdrawalAmountSchema
  ).max(maximum, maximumMessage(maximum));
  return z
    .string()
    .trim()
    .transform((text) => (text === '' ? Number.NaN : Number(text)))
    .pipe(boundedAmount);
}

/** The shared request schema (the same one the `withdrawals` function uses) over what was typed. */
export function createWithdrawFormSchema(allowance: WithdrawAllowance) {
  const typedAmount = typedAmountSchema(allowance);
  // The amount is also checked on its own, so a person who has not picked a method yet still learns
  // what is wrong with the amount (the request schema stops at the missing method).
  return z.intersection(z.object({ amount: typedAmount }), withdrawalRequestSchema(typedAmount));
}

/** The amount as on the typed form, to a saved destination (its details are the destination's). */
export function createSavedDestinationFormSchema(allowance: WithdrawAllowance) {
  return z.object({
    amount: typedAmountSchema(allowance),
    destinationId: z.uuid('Choose a saved destination'),
  });
}
