import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { successToastOptions, type SubmissionOutcome } from '@/lib/idempotent-submission';
import { Button } from '@/components/ui/button';
import { PriceProtectionFields } from '@/components/price-protection-fields';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';
import { formatCryptoAmount, formatUsd } from '@/lib/format';
import type { MarketCoin } from '@/lib/market';
import { limitsAreSet, type TransactionLimits } from '@domain/limits.ts';
import { defaultPriceTolerance, defaultRequestLifetime, limitPriceFor } from '@domain/price-protection.ts';
import { BUY_SUBMITTED_MESSAGE, NOT_SIGNED_IN_MESSAGE, SUBMIT_FAILED_MESSAGE } from '../api/buy-messages';
import type { BuyOrder } from '../types';
import { createBuyFormSchema, type BuyFormValues } from './buy-form-schema';

type BuyFormCoin = Pick<MarketCoin, 'id' | 'name' | 'symbol' | 'current_price'>;

export interface BuyFormProps {
  coins: readonly BuyFormCoin[];
  limits: TransactionLimits;
  /** The available balance a new buy reserves from; undefined while it loads. */
  available?: number;
  /** False once the session is gone (signed out elsewhere, expired): buying is refused with a message. */
  isSignedIn: boolean;
  /** Sends the request; rejects with an Error whose message is what the person should read. */
  /** Resolves once the request exists (perhaps found by a retry after a lost answer). */
  onSubmit: (order: BuyOrder) => Promise<SubmissionOutcome<unknown>>;
}

/** The estimate: the USD amount divided by the coin price, 8 decimals. */
function estimate(amount: string, coin: BuyFormCoin | undefined): string | undefined {
  const usd = Number(amount);
  if (!coin || amount.trim() === '' || !Number.isFinite(usd) || usd <= 0 || coin.current_price <= 0) {
    return undefined;
  }
  return formatCryptoAmount(usd / coin.current_price);
}

export function BuyForm({ coins, limits, available, isSignedIn, onSubmit }: BuyFormProps) {
  const schema = useMemo(() => createBuyFormSchema(limits, available), [limits, available]);
  const [tolerance, setTolerance] = useState(defaultPriceTolerance);
  const [lifetime, setLifetime] = useState(defaultRequestLifetime);
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<BuyFormValues>({
    resolver: zodResolver(schema),
    // Validating on blur would move the submit button under the pointer mid-click (an error line
    // appears above it) and swallow the click; errors show on submit, then follow each keystroke.
    mode: 'onSubmit',
    defaultValues: { cryptocurrency: '', amount: '' },
  });
  const [cryptocurrency, amount] = useWatch({ control, name: ['cryptocurrency', 'amount'] });
  const selectedCoin = coins.find((coin) => coin.id === cryptocurrency);
  const estimatedQuantity = estimate(amount, selectedCoin);

  // A refusal the form can tell shows once, under its field; a toast is only for what the server answers.
  const submit = handleSubmit(async (values) => {
    if (!isSignedIn) {
      toast.error(NOT_SIGNED_IN_MESSAGE);
      return;
    }
    let outcome: SubmissionOutcome<unknown>;
    try {
      // The price the person saw, moved by their tolerance: the most the approval may fill at.
      const shownPrice = coins.find((coin) => coin.id === values.cryptocurrency)?.current_price;
      outcome = await onSubmit({
        cryptocurrency: values.cryptocurrency,
        amount: Number(values.amount),
        limitPrice: limitPriceFor('buy', shownPrice, tolerance),
        lifetime,
      });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : SUBMIT_FAILED_MESSAGE);
      return;
    }
    toast.success(BUY_SUBMITTED_MESSAGE, successToastOptions(outcome));
    reset();
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <FormField label="Cryptocurrency" error={errors.cryptocurrency?.message}>
        {(control) => (
          <NativeSelect {...control} {...register('cryptocurrency')}>
            <option value="">Select a cryptocurrency</option>
            {coins.map((coin) => (
              <option key={coin.id} value={coin.id}>
                {coin.name} ({coin.symbol.toUpperCase()}) · {formatUsd(coin.current_price)}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Amount (USD)" error={errors.amount?.message}>
        {(control) => (
          <UsdAmountInput
            {...control}
            {...register('amount')}
            min={limitsAreSet(limits) ? limits.minAmount : 0}
            max={limitsAreSet(limits) ? limits.maxAmount : undefined}
            placeholder="0.00"
          />
        )}
      </FormField>
      <PriceProtectionFields
        side="buy"
        price={selectedCoin?.current_price}
        tolerance={tolerance}
        onToleranceChange={setTolerance}
        lifetime={lifetime}
        onLifetimeChange={setLifetime}
      />
      <p className="bg-muted rounded-lg p-3 text-sm" aria-live="polite">
        <span className="text-muted-foreground">Estimated amount: </span>
        <output className="font-semibold tabular-nums" data-testid="buy-estimate">
          {estimatedQuantity && selectedCoin
            ? `${estimatedQuantity} ${selectedCoin.symbol.toUpperCase()}`
            : '—'}
        </output>
      </p>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Submitting…' : 'Submit Buy Request'}
      </Button>
    </form>
  );
}
