/**
 * The one definition of a withdraw request: the browser form and the `withdrawals` Edge Function both
 * validate with it, so the two can never disagree. Field names are the specification's payload fields.
 * Loaded by Vite (zod from node_modules) and by Deno (zod through `deno.json`), so the domain module imports
 * nothing but zod and itself.
 */
import { z } from 'zod';
import { hasAtMostTwoDecimalPlaces, largestStorableAmount, TWO_DECIMAL_PLACES_MESSAGE } from './amounts.ts';
import {
  accountNumberProblem,
  compactBankNumber,
  DOMESTIC_ACCOUNT_UNCHECKED_MESSAGE,
  routingNumberProblem,
  swiftCodeProblem,
} from './bank-details.ts';
import { checkCryptoAddress, type CryptoSymbol } from './crypto-addresses.ts';

export const withdrawMethods = ['bank', 'card', 'wallet'] as const;
export type WithdrawMethod = (typeof withdrawMethods)[number];

export const withdrawMethodLabels: Record<WithdrawMethod, string> = {
  bank: 'Bank transfer',
  card: 'Card',
  wallet: 'Crypto wallet',
};

export const cryptocurrencyOptions = [
  'BTC',
  'DOGE',
  'XRP',
  'ETH',
  'USDT',
  'BNB',
] as const satisfies CryptoSymbol[];

/** Text fields are bounded so one request can never carry an oversized payload into the database. */
const maxTextLength = 200;

function isMissing(input: unknown): boolean {
  return input === undefined || input === null || (typeof input === 'number' && Number.isNaN(input));
}

/** A required text field: `X is required` when missing or blank (the specification's wording). */
function requiredText(label: string) {
  return z
    .string({ error: (issue) => (isMissing(issue.input) ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`)
    .max(maxTextLength, `${label} must be at most ${maxTextLength} characters`);
}

/** A whole number of cents, above zero: the amount before the limits of the day are applied. */
export const withdrawalAmountSchema = z
  .number({ error: (issue) => (isMissing(issue.input) ? 'Amount is required' : 'Amount must be a number') })
  .positive('Amount must be greater than 0')
  .refine(hasAtMostTwoDecimalPlaces, TWO_DECIMAL_PLACES_MESSAGE)
  .max(largestStorableAmount, 'Amount is too large');

/** Luhn checksum: catches a mistyped digit or two swapped digits, as every card form does. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const expirationPattern = /^(0[1-9]|1[0-2])\/(\d{2})$/;

/** A card is valid through the last day of its expiry month. */
function hasNotExpired(expiration: string): boolean {
  const today = new Date();
  const match = expirationPattern.exec(expiration);
  if (!match) return true;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  return year > today.getFullYear() || (year === today.getFullYear() && month >= today.getMonth() + 1);
}

/** A bank number as typed (groups, either case), compacted, then held to `rule` once it is not blank. */
function bankNumber(label: string, rule: (compact: string) => string | undefined) {
  return requiredText(label)
    .transform(compactBankNumber)
    .superRefine((compact, context) => {
      const problem = compact === '' ? undefined : rule(compact);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
}

export const bankDetailsSchema = z.strictObject({
  accountNumber: bankNumber('Account number', accountNumberProblem),
  accountName: requiredText('Account name'),
  bankName: requiredText('Bank name'),
  bankAddress: requiredText('Bank address'),
  routingNumber: bankNumber('Routing number', routingNumberProblem),
  swiftCode: bankNumber('SWIFT code', swiftCodeProblem),
});

export const cardDetailsSchema = z.strictObject({
  // People type card numbers in groups; only the digits are kept.
  cardNumber: requiredText('Card number')
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((digits) => /^\d{12,19}$/.test(digits), 'Card number must be 12 to 19 digits')
    .refine((digits) => !/^\d{12,19}$/.test(digits) || passesLuhn(digits), 'Card number is not valid'),
  expirationDate: requiredText('Expiration date')
    .regex(expirationPattern, 'Expiration date must be MM/YY')
    .refine(hasNotExpired, 'Card has expired'),
  cvv: requiredText('CVV').regex(/^\d{3,4}$/, 'CVV must be 3 or 4 digits'),
  pin: requiredText('PIN')
    .min(2, 'PIN must be at least 2 digits')
    .max(12, 'PIN must be at most 12 digits')
    .regex(/^\d+$/, 'PIN must contain digits only'),
});

/** The specification's minimum (10 characters), one word, and bounded like every text field. */
function isAddressShaped(address: string): boolean {
  return /^\S{10,128}$/.test(address);
}

export const walletDetailsSchema = z
  .strictObject({
    cryptoType: z.enum(cryptocurrencyOptions, { error: 'Please select a cryptocurrency' }),
    walletAddress: z
      .string({ error: 'Please enter a valid wallet address' })
      .trim()
      .refine(isAddressShaped, 'Please enter a valid wallet address'),
  })
  // Zod runs this even when a field failed, so it checks the network only on a shaped address of a known coin.
  .superRefine(({ cryptoType, walletAddress }, context) => {
    if (!cryptocurrencyOptions.includes(cryptoType) || !isAddressShaped(walletAddress)) return;
    const { refusal } = checkCryptoAddress(cryptoType, walletAddress);
    if (refusal) context.addIssue({ code: 'custom', message: refusal, path: ['walletAddress'] });
  });

/**
 * What an admin should look at twice in stored payout details before paying: what the rules refuse (a request
 * made before they existed) and what they could not check (a domestic account number, an address without a
 * checksum). Card details are stored without CVV and PIN, and their number was checked (Luhn) when sent.
 */
export function payoutDetailsWarnings(method: string, details: Record<string, string>): string[] {
  const schema =
    method === 'bank' ? bankDetailsSchema : method === 'wallet' ? walletDetailsSchema : undefined;
  if (!schema) return [];
  const parsed = schema.safeParse(details);
  if (!parsed.success) return [...new Set(parsed.error.issues.map((issue) => issue.message))];
  if ('accountNumber' in parsed.data && /^\d+$/.test(parsed.data.accountNumber))
    return [DOMESTIC_ACCOUNT_UNCHECKED_MESSAGE];
  if ('walletAddress' in parsed.data) {
    const { unchecked } = checkCryptoAddress(parsed.data.cryptoType, parsed.data.walletAddress);
    return unchecked ? [unchecked] : [];
  }
  return [];
}

export type BankDetails = z.output<typeof bankDetailsSchema>;
export type CardDetails = z.output<typeof cardDetailsSchema>;
export type WalletDetails = z.output<typeof walletDetailsSchema>;

/** Every payload field a method may carry, with the label a person reads (admin details view, form). */
export const withdrawalFieldLabels = {
  accountNumber: 'Account number',
  accountName: 'Account name',
  bankName: 'Bank name',
  bankAddress: 'Bank address',
  routingNumber: 'Routing number',
  swiftCode: 'SWIFT code',
  cardNumber: 'Card number',
  expirationDate: 'Expiration date (MM/YY)',
  cvv: 'CVV',
  pin: 'PIN',
  cryptoType: 'Cryptocurrency',
  walletAddress: 'Wallet address',
} as const;
export type WithdrawalField = keyof typeof withdrawalFieldLabels;

/**
 * The request: `{ amount, withdrawMethod, details }` where `details` holds exactly the chosen method's
 * fields (any other field is refused, so nothing of another method is ever stored). The browser passes
 * an amount schema built on `withdrawalAmountSchema` that reads the typed text and adds the limits and the
 * available balance; the server relies on `create_withdraw_request` for those, under its lock.
 */
export function withdrawalRequestSchema(amount: z.ZodType<number, unknown> = withdrawalAmountSchema) {
  return z.discriminatedUnion(
    'withdrawMethod',
    [
      z.strictObject({ amount, withdrawMethod: z.literal('bank'), details: bankDetailsSchema }),
      z.strictObject({ amount, withdrawMethod: z.literal('card'), details: cardDetailsSchema }),
      z.strictObject({ amount, withdrawMethod: z.literal('wallet'), details: walletDetailsSchema }),
    ],
    {
      error: (issue) => {
        if (issue.code !== 'invalid_union') return undefined;
        const method = (issue.input as { withdrawMethod?: unknown } | undefined)?.withdrawMethod;
        return method === undefined || method === null || method === ''
          ? 'Withdraw method is required'
          : 'Withdraw method must be bank, card or wallet';
      },
    },
  );
}

export const withdrawalRequest = withdrawalRequestSchema();
export type WithdrawalRequest = z.output<typeof withdrawalRequest>;

/** A card as the address book keeps it: its CVV and PIN are never stored (PCI DSS 3.2, 3.3). */
export const savedCardDetailsSchema = cardDetailsSchema.omit({ cvv: true, pin: true });

export const payoutDestinationLabelSchema = requiredText('Label').max(
  60,
  'Label must be at most 60 characters',
);

/** A destination saved to the address book: `{ label, withdrawMethod, details }`, any of the three methods. */
export const payoutDestinationSchema = z.discriminatedUnion(
  'withdrawMethod',
  [
    z.strictObject({
      label: payoutDestinationLabelSchema,
      withdrawMethod: z.literal('bank'),
      details: bankDetailsSchema,
    }),
    z.strictObject({
      label: payoutDestinationLabelSchema,
      withdrawMethod: z.literal('card'),
      details: savedCardDetailsSchema,
    }),
    z.strictObject({
      label: payoutDestinationLabelSchema,
      withdrawMethod: z.literal('wallet'),
      details: walletDetailsSchema,
    }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? 'Withdraw method must be bank, card or wallet' : undefined,
  },
);
export type PayoutDestination = z.output<typeof payoutDestinationSchema>;

/** A withdrawal to a saved destination: the details are the destination's, never sent again. */
export const savedDestinationWithdrawalSchema = z.strictObject({
  amount: withdrawalAmountSchema,
  destinationId: z.uuid('Choose a saved destination'),
});

/** What the address book shows of a destination beside its label: the last 4 characters that identify it. */
export function lastFourCharacters(destination: PayoutDestination): string {
  const { details } = destination;
  const identifying =
    'accountNumber' in details
      ? details.accountNumber
      : 'cardNumber' in details
        ? details.cardNumber
        : details.walletAddress;
  return identifying.slice(-4);
}

export type SavedDestinationWithdrawal = z.output<typeof savedDestinationWithdrawalSchema>;
/** What the withdrawals function takes: typed details, or a saved destination of the address book. */
export type WithdrawalSubmission = WithdrawalRequest | SavedDestinationWithdrawal;
