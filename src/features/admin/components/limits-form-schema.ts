import { z } from 'zod';
import { hasAtMostTwoDecimalPlaces, TWO_DECIMAL_PLACES_MESSAGE } from '@domain/amounts.ts';
import { LIMITS_NEGATIVE_MESSAGE, LIMITS_ORDER_MESSAGE } from '@domain/limits.ts';

const amount = z
  .string()
  .trim()
  .min(1, 'Amount is required')
  .refine((text) => Number.isFinite(Number(text)), 'Amount must be a number')
  .refine((text) => hasAtMostTwoDecimalPlaces(Number(text)), TWO_DECIMAL_PLACES_MESSAGE);

/** Limits settings: both amounts not negative, the minimum below the maximum (specification §5). */
export const limitsFormSchema = z
  .object({ minAmount: amount, maxAmount: amount })
  .superRefine(({ minAmount, maxAmount }, context) => {
    const min = Number(minAmount);
    const max = Number(maxAmount);
    if (min < 0 || max < 0) {
      context.addIssue({
        code: 'custom',
        message: LIMITS_NEGATIVE_MESSAGE,
        path: [min < 0 ? 'minAmount' : 'maxAmount'],
      });
    } else if (min >= max) {
      context.addIssue({ code: 'custom', message: LIMITS_ORDER_MESSAGE, path: ['minAmount'] });
    }
  });

export type LimitsFormValues = z.infer<typeof limitsFormSchema>;
