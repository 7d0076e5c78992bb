import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { ErrorMessage } from '@/components/error-message';
import { MarketCoinField } from '@/components/market-coin-field';
import { UsdAmountField } from '@/components/usd-amount-field';
import { QueryState } from '@/components/query-state';
import { formatDateTime, formatUsd } from '@/lib/format';
import { useMarketCoins } from '@/lib/market-feed';
import { useChangePriceAlerts } from '../api/change-price-alerts';
import {
  PRICE_ALERTS_FAILED_MESSAGE,
  usePriceAlerts,
  type PriceAlert,
  type PriceAlertCondition,
} from '../api/get-price-alerts';

/** The alert as the person set it: "above $100.00" or "moves more than 5 % in 24 h". */
const describeCondition = (condition: PriceAlertCondition) =>
  condition.direction === 'moves'
    ? `moves more than ${condition.percent} % in 24 h`
    : `${condition.direction} ${formatUsd(condition.price)}`;

function NewAlertForm({ userId }: { userId: string }) {
  const market = useMarketCoins();
  const change = useChangePriceAlerts(userId);
  const [coin, setCoin] = useState('');
  const [direction, setDirection] = useState<PriceAlertCondition['direction']>('above');
  const [amount, setAmount] = useState('');
  const coins = market.data?.coins ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const condition: PriceAlertCondition =
      direction === 'moves' ? { direction, percent: Number(amount) } : { direction, price: Number(amount) };
    change.mutate(
      { action: 'set', alert: { ...condition, cryptocurrency: coin || (coins[0]?.id ?? '') } },
      { onSuccess: () => setAmount('') },
    );
  };

  return (
    <CardContent className="grid gap-4">
      <form className="flex flex-wrap items-end gap-4" onSubmit={submit} aria-label="New price alert">
        <MarketCoinField label="Coin" className="w-48" coins={coins} value={coin} onValueChange={setCoin} />
        <FormField label="When the price" className="w-56">
          {(control) => (
            <NativeSelect
              {...control}
              value={direction}
              onChange={(event) =>
                setDirection(
                  event.target.value === 'below'
                    ? 'below'
                    : event.target.value === 'moves'
                      ? 'moves'
                      : 'above',
                )
              }
            >
              <option value="above">goes above</option>
              <option value="below">goes below</option>
              <option value="moves">moves up or down in 24 h</option>
            </NativeSelect>
          )}
        </FormField>
        {direction === 'moves' ? (
          <FormField label="By more than (%)" className="w-40">
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="decimal"
                required
                min="0.1"
                max="999"
                step="0.1"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </FormField>
        ) : (
          <UsdAmountField
            label="Price (USD)"
            className="w-40"
            required
            value={amount}
            onValueChange={setAmount}
          />
        )}
        <Button type="submit" disabled={change.isPending || coins.length === 0}>
          Set alert
        </Button>
      </form>
      {change.isError && <ErrorMessage>{change.error.message}</ErrorMessage>}
    </CardContent>
  );
}

function Alerts({ userId, alerts }: { userId: string; alerts: PriceAlert[] }) {
  const change = useChangePriceAlerts(userId);
  if (alerts.length === 0)
    return <CardContent className="text-muted-foreground">No price alerts yet.</CardContent>;
  return (
    <CardContent className="grid gap-4">
      <ul className="grid gap-3">
        {alerts.map((alert) => (
          <li key={alert.id} className="flex flex-wrap items-center justify-between gap-2">
            <span>
              {alert.cryptocurrency} {describeCondition(alert)}
              <span className="text-muted-foreground text-sm">
                {alert.armed
                  ? ' · waiting'
                  : alert.lastFiredAt
                    ? ' · told; waits for the price to come back'
                    : ' · already past: waits for the next crossing'}
                {alert.lastFiredAt && ` · last told ${formatDateTime(alert.lastFiredAt)}`}
              </span>
            </span>
            <Button
              variant="outline"
              disabled={change.isPending}
              aria-label={`Delete the alert ${alert.cryptocurrency} ${describeCondition(alert)}`}
              onClick={() => change.mutate({ action: 'delete', id: alert.id })}
            >
              Delete
            </Button>
          </li>
        ))}
      </ul>
      {change.isError && <ErrorMessage>{change.error.message}</ErrorMessage>}
    </CardContent>
  );
}

/**
 * /user/price-alerts: "tell me when a coin goes above / below P" or "moves more than N % in 24 h", judged on
 * the server's prices and told in the notifications and by e-mail, once per crossing.
 */
export function PriceAlertsPage({ userId }: { userId: string }) {
  const alerts = usePriceAlerts(userId);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Price alerts</h1>
      <Card>
        <CardHeader>
          <CardTitle>New price alert</CardTitle>
          <CardDescription>
            You are told in your notifications and by e-mail when the price passes yours, or moves more than
            your percentage from its price 24 hours before, once: the alert waits again once the price has
            come back more than 1 % the other way.
          </CardDescription>
        </CardHeader>
        <NewAlertForm userId={userId} />
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Your price alerts</CardTitle>
        </CardHeader>
        <QueryState
          query={alerts}
          placeholder={<Skeleton className="mx-6 mb-6 h-16" />}
          errorMessage={PRICE_ALERTS_FAILED_MESSAGE}
        >
          {(data) => <Alerts userId={userId} alerts={data} />}
        </QueryState>
      </Card>
    </div>
  );
}
