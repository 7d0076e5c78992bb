import { z } from 'zod';
import { hasAtMostTwoDecimalPlaces, TWO_DECIMAL_PLACES_MESSAGE } from '@domain/amounts.ts';
import { outsideLimitsMessage, type TransactionLimits } from '@domain/limits.ts';
import { BUY_NOT_COVERED_MESSAGE } from '../api/buy-messages';

/**
 * The form keeps what was typed (strings); the amount becomes a number only once it is valid. `available`: the
 * balance a new buy may reserve (unknown while loading: the database checks it anyway).
 */
export function createBuyFormSchema(limits: TransactionLimits, available?: number) {
  return z.object({
    cryptocurrency: z.string().min(1, 'Please select a cryptocurrency'),
    amount: z
      .string()
      .trim()
      .refine((value) => value !== '' && Number.isFinite(Number(value)), {
        message: 'Amount is required',
        // An empty amount gets this message alone, not the minimum's as well.
        abort: true,
      })
      .superRefine((value, context) => {
        const amount = Number(value);
        const message = !hasAtMostTwoDecimalPlaces(amount)
          ? TWO_DECIMAL_PLACES_MESSAGE
          : (outsideLimitsMessage(amount, limits) ??
            (available !== undefined && amount > available ? BUY_NOT_COVERED_MESSAGE : undefined));
        if (message) context.addIssue({ code: 'custom', message });
      }),
  });
}

export type BuyFormValues = z.infer<ReturnType<typeof createBuyFormSchema>>;
