import { ArrowRightLeftIcon } from 'lucide-react';
import { useDeferredValue, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { formatCryptoAmount, formatUsd } from '@/lib/format';
import type { MarketCoin } from '@/lib/market';
import {
  convert,
  converterCurrencies,
  currencySymbols,
  formatConverterValue,
  usdPerUnit,
  type ConversionOutcome,
  type ConverterCurrency,
} from '../utils/conversion';

interface ConverterInput {
  fromId: string;
  toId: string;
  amount: string;
  currency: ConverterCurrency;
}

interface ConversionResult {
  input: ConverterInput;
  from: MarketCoin;
  to: MarketCoin;
  outcome: ConversionOutcome;
}

const emptyInput: ConverterInput = { fromId: '', toId: '', amount: '', currency: 'USD' };

const upper = (coin: MarketCoin) => coin.symbol.toUpperCase();

function parseAmount(text: string): number | undefined {
  const amount = Number(text);
  return text.trim() !== '' && Number.isFinite(amount) && amount > 0 ? amount : undefined;
}

/**
 * 'Crypto Converter': fixed currency rates and the current market prices of the coins on the page. New
 * prices reach it in an interruptible render of their own, as they do the prices' table.
 */
export function CryptoConverter(props: { coins: readonly MarketCoin[]; className?: string }) {
  const coins = useDeferredValue(props.coins);
  const id = useId();
  const [input, setInput] = useState<ConverterInput>(emptyInput);
  const [result, setResult] = useState<ConversionResult>();

  const from = coins.find((coin) => coin.id === input.fromId);
  const to = coins.find((coin) => coin.id === input.toId);
  const amount = parseAmount(input.amount);
  const canConvert = from !== undefined && to !== undefined && amount !== undefined;

  // Any change makes the shown result stale, so it goes away until the next conversion.
  const change = (patch: Partial<ConverterInput>) => {
    setInput((current) => ({ ...current, ...patch }));
    setResult(undefined);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canConvert) return;
    const outcome = convert({
      amount,
      currency: input.currency,
      fromPrice: from.current_price,
      toPrice: to.current_price,
    });
    setResult({ input, from, to, outcome });
  };

  return (
    <Card className={props.className}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Crypto Converter</CardTitle>
        <CardDescription>Real-time rates • Updated every minute</CardDescription>
      </CardHeader>
      {/* Sized by its own width: the panel sits in a narrow column on wide screens. */}
      <CardContent className="@container">
        <form aria-labelledby={`${id}-title`} onSubmit={submit} className="grid gap-4">
          <div className="grid gap-4 @sm:grid-cols-2">
            <CoinSelect
              id={`${id}-from`}
              label="From"
              coins={coins}
              value={input.fromId}
              onChange={(fromId) => change({ fromId })}
            />
            <CoinSelect
              id={`${id}-to`}
              label="To"
              coins={coins}
              value={input.toId}
              onChange={(toId) => change({ toId })}
            />
            <div className="grid gap-2">
              <Label htmlFor={`${id}-amount`}>Amount</Label>
              <Input
                id={`${id}-amount`}
                type="number"
                inputMode="decimal"
                min="0"
                step="any"
                placeholder="0.00"
                value={input.amount}
                onChange={(event) => change({ amount: event.target.value })}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-currency`}>Currency</Label>
              <NativeSelect
                id={`${id}-currency`}
                value={input.currency}
                onChange={(event) => change({ currency: event.target.value as ConverterCurrency })}
              >
                {converterCurrencies.map((currency) => (
                  <option key={currency} value={currency}>
                    {currency} {currencySymbols[currency]}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
          <Button type="submit" disabled={!canConvert} className="w-full @sm:w-auto @sm:justify-self-start">
            <ArrowRightLeftIcon aria-hidden />
            Convert
          </Button>
          {result && <ConversionResultView result={result} />}
        </form>
      </CardContent>
    </Card>
  );
}

function CoinSelect({
  id,
  label,
  coins,
  value,
  onChange,
}: {
  id: string;
  label: string;
  coins: readonly MarketCoin[];
  value: string;
  onChange: (coinId: string) => void;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Select coin</option>
        {coins.map((coin) => (
          <option key={coin.id} value={coin.id}>
            {coin.name} ({upper(coin)})
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function ConversionResultView({ result }: { result: ConversionResult }) {
  const { input, from, to, outcome } = result;
  const rate = usdPerUnit[input.currency];
  return (
    <div className="bg-muted rounded-lg p-4">
      <p className="text-muted-foreground text-sm">Result</p>
      <output aria-label="Conversion result" className="block text-xl font-semibold tabular-nums">
        {formatCryptoAmount(outcome.quantity)} {upper(to)}
      </output>
      <p className="mt-1 text-sm tabular-nums">
        Worth{' '}
        <span data-testid="conversion-value">{formatConverterValue(outcome.value, input.currency)}</span>
      </p>
      <p className="text-muted-foreground mt-1 text-xs tabular-nums">
        {input.amount} {upper(from)} × {formatUsd(from.current_price)} ÷ {formatUsd(to.current_price)}
        {input.currency !== 'USD' && ` · 1 ${input.currency} = ${rate} USD`}
      </p>
    </div>
  );
}
