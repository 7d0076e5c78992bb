import { z } from 'zod';
import { formatThousands } from '@/lib/format';
import { limitsAreSet, type TransactionLimits } from '@/lib/transaction-limits';
import { hasAtMostTwoDecimalPlaces, twoDecimalPlacesMessage } from '@/lib/usd-amount';

/** The field messages of the specification: 'Minimum amount is $10', 'Maximum amount is $10,000'. */
export function amountLimitError(amount: number, limits: TransactionLimits): string | undefined {
  if (!limitsAreSet(limits)) return undefined;
  if (amount < limits.minAmount) return `Minimum amount is $${formatThousands(limits.minAmount)}`;
  if (amount > limits.maxAmount) return `Maximum amount is $${formatThousands(limits.maxAmount)}`;
  return undefined;
}

/** The on-submit messages of the specification: 'Minimum transaction amount is $10', and the maximum. */
export function transactionLimitError(amount: number, limits: TransactionLimits): string | undefined {
  if (!limitsAreSet(limits)) return undefined;
  if (amount < limits.minAmount) return `Minimum transaction amount is $${formatThousands(limits.minAmount)}`;
  if (amount > limits.maxAmount) return `Maximum transaction amount is $${formatThousands(limits.maxAmount)}`;
  return undefined;
}

/** The form keeps what was typed (strings); the amount becomes a number only once it is valid. */
export function createBuyFormSchema(limits: TransactionLimits) {
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
        const message = hasAtMostTwoDecimalPlaces(amount)
          ? amountLimitError(amount, limits)
          : twoDecimalPlacesMessage;
        if (message) context.addIssue({ code: 'custom', message });
      }),
  });
}

export type BuyFormValues = z.infer<ReturnType<typeof createBuyFormSchema>>;
