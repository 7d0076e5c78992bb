import { hasAtMostTwoDecimalPlaces, TWO_DECIMAL_PLACES_MESSAGE } from '@domain/amounts.ts';
import { z } from 'zod';

/** The specification's minimum deposit (section 9). */
export const MINIMUM_DEPOSIT = 0.01;

/**
 * Admin deposit: a person and an amount of at least 0.01 (specification §5, word for word) in whole cents, so
 * the confirmation never shows a rounded amount the database then refuses.
 */
export const depositFormSchema = z.object({
  userId: z.string().min(1, 'User is required'),
  amount: z
    .string()
    .trim()
    .refine((text) => text !== '' && Number(text) >= MINIMUM_DEPOSIT, {
      message: 'Amount must be greater than 0',
      abort: true,
    })
    .refine((text) => hasAtMostTwoDecimalPlaces(Number(text)), TWO_DECIMAL_PLACES_MESSAGE),
});

export type DepositFormValues = z.infer<typeof depositFormSchema>;
