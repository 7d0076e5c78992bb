import { z } from 'zod';

/** The specification's minimum deposit (section 9). */
export const MINIMUM_DEPOSIT = 0.01;

/** Admin deposit: a person and an amount of at least 0.01 (specification §5, word for word). */
export const depositFormSchema = z.object({
  userId: z.string().min(1, 'User is required'),
  amount: z
    .string()
    .trim()
    .refine((text) => text !== '' && Number(text) >= MINIMUM_DEPOSIT, 'Amount must be greater than 0'),
});

export type DepositFormValues = z.infer<typeof depositFormSchema>;
