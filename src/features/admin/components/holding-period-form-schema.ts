import { z } from 'zod';
import { HOLDING_PERIOD_RANGE_MESSAGE } from '../api/admin-messages';

/** The long-term threshold as the database allows it: whole days from 1 to 3660 (ten years). */
export const holdingPeriodFormSchema = z.object({
  days: z
    .string()
    .trim()
    .regex(/^\d+$/, HOLDING_PERIOD_RANGE_MESSAGE)
    .refine((text) => Number(text) >= 1 && Number(text) <= 3660, HOLDING_PERIOD_RANGE_MESSAGE),
});
