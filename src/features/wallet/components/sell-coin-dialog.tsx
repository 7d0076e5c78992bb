import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogHeading, DialogTrigger } from '@/components/ui/dialog';
import { PriceProtectionFields } from '@/components/price-protection-fields';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { defaultPriceTolerance, defaultRequestLifetime, limitPriceFor } from '@domain/price-protection.ts';
import { formatUsd } from '@/lib/format';
import { useTransactionLimits } from '@/lib/transaction-limits';
import { successToastOptions } from '@/lib/idempotent-submission';
import { submitWithStepUp } from '@/lib/step-up';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { useCreateSellRequest } from '../api/create-sell-request';
import { quantityToSell, truncateQuantity, type SellableCoin, type SellBy } from '../utils/sell-quantity';
import { SELL_FAILED_MESSAGE, SELL_SUBMITTED_MESSAGE } from '../api/wallet-messages';

/**
 * Sell (per coin held): the person names a quantity, or a USD value converted to a quantity at the price
 * shown (cut to 8 decimal places, never rounded up). The request reserves that quantity until an admin
 * decides; approval credits USD at the server's price then, which the dialog says.
 */
export function SellCoinDialog({ userId, coin }: { userId: string; coin: SellableCoin }) {
  const [open, setOpen] = useState(false);
  const [sellBy, setSellBy] = useState<SellBy>('quantity');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const [tolerance, setTolerance] = useState(defaultPriceTolerance);
  const [lifetime, setLifetime] = useState(defaultRequestLifetime);
  const sale = useCreateSellRequest(userId);
  const limits = useTransactionLimits();
  const { askForCode, codeDialog } = useCodePrompt(
    'Coins are sold only after a code from your authenticator app. Your request is sent once the code is checked.',
  );
  const symbol = coin.symbol.toUpperCase();
  const available = truncateQuantity(coin.available);

  // The estimate shows whatever the limits say, so a sale under the minimum still shows what it is worth.
  const asked = typed.trim() === '' ? undefined : quantityToSell(sellBy, typed, coin, undefined);
  const quantity = asked && 'quantity' in asked ? asked.quantity : undefined;
  const estimate =
    quantity === undefined || coin.price === undefined
      ? '—'
      : `${quantity} ${symbol} ≈ ${formatUsd(Number(quantity) * coin.price)}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = quantityToSell(sellBy, typed, coin, limits.data);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    try {
      const order = {
        cryptocurrency: coin.cryptocurrency,
        quantity: checked.quantity,
        limitPrice: limitPriceFor('sell', coin.price, tolerance),
        lifetime,
      };
      const outcome = await submitWithStepUp(() => sale.mutateAsync(order), askForCode);
      toast.success(SELL_SUBMITTED_MESSAGE, successToastOptions(outcome));
      setTyped('');
      setOpen(false);
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : SELL_FAILED_MESSAGE);
    }
  };

  return (
    <>
      {codeDialog}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button variant="outline" size="sm" aria-label={`Sell ${coin.name}`}>
            Sell
          </Button>
        </DialogTrigger>
        <DialogContent>
          <DialogHeading
            title={<>Sell {coin.name}</>}
            description={
              <>
                Available to sell: {available} {symbol}. An admin approves the request; you are credited at
                the price when it is approved.
              </>
            }
          />
          <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
            <FormField label="Sell by">
              {(control) => (
                <NativeSelect
                  {...control}
                  value={sellBy}
                  onChange={(event) => {
                    setSellBy(event.target.value as SellBy);
                    setTyped('');
                    setError(undefined);
                  }}
                >
                  <option value="quantity">Quantity ({symbol})</option>
                  <option value="usd">Value (USD)</option>
                </NativeSelect>
              )}
            </FormField>
            <FormField label={sellBy === 'usd' ? 'Value (USD)' : `Quantity (${symbol})`} error={error}>
              {(control) => (
                <div className="flex gap-2">
                  <Input
                    {...control}
                    type="number"
                    inputMode="decimal"
                    step={sellBy === 'usd' ? '0.01' : '0.00000001'}
                    min={0}
                    className="tabular-nums"
                    value={typed}
                    onChange={(event) => {
                      setTyped(event.target.value);
                      if (error) setError(undefined);
                    }}
                    placeholder={sellBy === 'usd' ? '0.00' : '0.00000000'}
                  />
                  {sellBy === 'quantity' && (
                    <Button type="button" variant="outline" onClick={() => setTyped(available)}>
                      All
                    </Button>
                  )}
                </div>
              )}
            </FormField>
            <PriceProtectionFields
              side="sell"
              price={coin.price}
              tolerance={tolerance}
              onToleranceChange={setTolerance}
              lifetime={lifetime}
              onLifetimeChange={setLifetime}
            />
            <p className="bg-muted rounded-lg p-3 text-sm" aria-live="polite">
              <span className="text-muted-foreground">Estimated value: </span>
              <output className="font-semibold tabular-nums" data-testid="sell-estimate">
                {estimate}
              </output>
            </p>
            <Button type="submit" disabled={sale.isPending}>
              {sale.isPending ? 'Submitting…' : 'Submit Sell Request'}
            </Button>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
