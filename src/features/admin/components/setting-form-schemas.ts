import { z } from 'zod';
import { HOLDING_PERIOD_RANGE_MESSAGE, SECURITY_HOLD_RANGE_MESSAGE } from '../api/admin-messages';

/** A whole-number setting's field: digits only (`notWhole` otherwise), from `min` to `max` (`outOfRange`). */
function wholeNumberSchema({
  min,
  max,
  notWhole,
  outOfRange,
}: {
  min: number;
  max: number;
  notWhole: string;
  outOfRange: string;
}) {
  return z.object({
    value: z
      .string()
      .trim()
      .regex(/^\d+$/, notWhole)
      .refine((text) => Number(text) >= min && Number(text) <= max, outOfRange),
  });
}

/** The security hold as the database allows it: whole hours from 0 (no hold) to 720 (30 days). */
export const securityHoldFormSchema = wholeNumberSchema({
  min: 0,
  max: 720,
  notWhole: 'Hours must be a whole number',
  outOfRange: SECURITY_HOLD_RANGE_MESSAGE,
});

/** The long-term threshold as the database allows it: whole days from 1 to 3660 (ten years). */
export const holdingPeriodFormSchema = wholeNumberSchema({
  min: 1,
  max: 3660,
  notWhole: HOLDING_PERIOD_RANGE_MESSAGE,
  outOfRange: HOLDING_PERIOD_RANGE_MESSAGE,
});
