import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';
import { ErrorMessage } from '@/components/error-message';
import { QueryState } from '@/components/query-state';
import { formatDateTime, formatUsd } from '@/lib/format';
import { useMarketCoins } from '@/lib/market-feed';
import { useChangeRecurringBuy } from '../api/change-recurring-buy';
import { useCreateRecurringBuy, type NewRecurringBuy } from '../api/create-recurring-buy';
import {
  RECURRING_BUYS_FAILED_MESSAGE,
  useRecurringBuys,
  type RecurringBuys,
} from '../api/get-recurring-buys';
import { describeSchedule, weekdays } from '../utils/describe-schedule';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const frequencies = { daily: 'Every day', weekly: 'Every week', monthly: 'Every month' } as const;
const isFrequency = (value: string): value is NewRecurringBuy['frequency'] => value in frequencies;
const tolerances = [1, 2, 5];

function NewScheduleForm({ userId }: { userId: string }) {
  const market = useMarketCoins();
  const create = useCreateRecurringBuy(userId);
  const [coin, setCoin] = useState('');
  const [amount, setAmount] = useState('');
  const [frequency, setFrequency] = useState<NewRecurringBuy['frequency']>('weekly');
  const [dayOfWeek, setDayOfWeek] = useState(1);
  const [dayOfMonth, setDayOfMonth] = useState(1);
  const [timeOfDay, setTimeOfDay] = useState('09:00');
  const [tolerance, setTolerance] = useState(2);
  const [ceiling, setCeiling] = useState('');
  // One key per filled-in form: a retry after a lost answer makes no second schedule.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const coins = market.data?.coins ?? [];
  const timeZone = browserTimeZone();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        cryptocurrency: coin || (coins[0]?.id ?? ''),
        amount: Number(amount),
        frequency,
        dayOfWeek: frequency === 'weekly' ? dayOfWeek : undefined,
        dayOfMonth: frequency === 'monthly' ? dayOfMonth : undefined,
        timeOfDay,
        timeZone,
        tolerancePercent: tolerance,
        priceCeiling: ceiling ? Number(ceiling) : undefined,
        idempotencyKey,
      },
      {
        onSuccess: () => {
          setAmount('');
          setCeiling('');
          setIdempotencyKey(crypto.randomUUID());
        },
      },
    );
  };

  return (
    <CardContent>
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} aria-label="New recurring buy">
        <FormField label="Coin">
          {(control) => (
            <NativeSelect {...control} value={coin} onChange={(event) => setCoin(event.target.value)}>
              {coins.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <FormField label="Amount (USD) each time">
          {(control) => (
            <UsdAmountInput
              {...control}
              required
              min="0.01"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="How often">
          {(control) => (
            <NativeSelect
              {...control}
              value={frequency}
              onChange={(event) => {
                if (isFrequency(event.target.value)) setFrequency(event.target.value);
              }}
            >
              {Object.entries(frequencies).map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        {frequency === 'weekly' && (
          <FormField label="Day of the week">
            {(control) => (
              <NativeSelect
                {...control}
                value={dayOfWeek}
                onChange={(event) => setDayOfWeek(Number(event.target.value))}
              >
                {weekdays.map((name, index) => (
                  <option key={name} value={index + 1}>
                    {name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
        )}
        {frequency === 'monthly' && (
          <FormField label="Day of the month (a shorter month: its last day)">
            {(control) => (
              <Input
                {...control}
                type="number"
                min="1"
                max="31"
                required
                value={dayOfMonth}
                onChange={(event) => setDayOfMonth(Number(event.target.value))}
              />
            )}
          </FormField>
        )}
        <FormField label={`Time (${timeZone})`}>
          {(control) => (
            <Input
              {...control}
              type="time"
              required
              value={timeOfDay}
              onChange={(event) => setTimeOfDay(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Price tolerance">
          {(control) => (
            <NativeSelect
              {...control}
              value={tolerance}
              onChange={(event) => setTolerance(Number(event.target.value))}
            >
              {tolerances.map((percent) => (
                <option key={percent} value={percent}>
                  Up to {percent} % above the price at the time
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <FormField label="Skip when the price is above (USD, optional)">
          {(control) => (
            <UsdAmountInput
              {...control}
              min="0.01"
              value={ceiling}
              onChange={(event) => setCeiling(event.target.value)}
            />
          )}
        </FormField>
        <div className="grid gap-2 sm:col-span-2">
          <Button type="submit" className="w-fit" disabled={create.isPending || coins.length === 0}>
            {create.isPending ? 'Scheduling…' : 'Schedule recurring buy'}
          </Button>
          {create.isError && <ErrorMessage>{create.error.message}</ErrorMessage>}
        </div>
      </form>
    </CardContent>
  );
}

function Schedules({ userId, data }: { userId: string; data: RecurringBuys }) {
  const change = useChangeRecurringBuy(userId);
  if (data.schedules.length === 0) {
    return <CardContent className="text-muted-foreground">No recurring buys yet.</CardContent>;
  }
  return (
    <CardContent className="grid gap-6">
      {change.isError && <ErrorMessage>{change.error.message}</ErrorMessage>}
      {data.schedules.map((schedule) => {
        const runs = data.runs.filter((run) => run.recurringBuyId === schedule.id);
        const paused = schedule.next_run_at === null;
        return (
          <section
            key={schedule.id}
            className="grid gap-3"
            aria-label={`${schedule.cryptocurrency} recurring buy`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <p className="font-medium">
                  {formatUsd(schedule.amount)} of {schedule.cryptocurrency}
                </p>
                <p className="text-muted-foreground text-sm">
                  {describeSchedule(schedule)} · limit {schedule.tolerance_percent} % over the price
                  {schedule.price_ceiling !== null && ` · skipped above ${formatUsd(schedule.price_ceiling)}`}
                </p>
                <p className="text-sm">
                  {paused
                    ? 'Paused'
                    : `Next run: ${formatDateTime(schedule.next_run_at ?? '', undefined, schedule.time_zone)}`}
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ id: schedule.id, action: paused ? 'resume' : 'pause' })}
                >
                  {paused ? 'Resume' : 'Pause'}
                </Button>
                <Button
                  variant="destructive"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ id: schedule.id, action: 'delete' })}
                >
                  Delete
                </Button>
              </div>
            </div>
            {runs.length > 0 && (
              <Table aria-label={`Runs of the ${schedule.cryptocurrency} recurring buy`}>
                <TableHeader>
                  <TableRow>
                    <TableHead>Scheduled for</TableHead>
                    <TableHead>What happened</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {runs.map((run) => (
                    <TableRow key={run.id}>
                      <TableCell>{formatDateTime(run.scheduledFor, undefined, schedule.time_zone)}</TableCell>
                      <TableCell>
                        {run.skipReason ? `Skipped: ${run.skipReason}` : 'Buy request placed'}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </section>
        );
      })}
    </CardContent>
  );
}

/**
 * /user/recurring-buys: schedule a buy of a dollar amount daily, weekly or monthly at a time in this device's
 * time zone, each run an ordinary buy request at the price then plus a tolerance; pause, resume or delete a
 * schedule, and read what each run did.
 */
export function RecurringBuysPage({ userId }: { userId: string }) {
  const recurringBuys = useRecurringBuys(userId);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Recurring buys</h1>
      <Card>
        <CardHeader>
          <CardTitle>New recurring buy</CardTitle>
          <CardDescription>
            Each run asks to buy at the price at that moment, up to the tolerance above it, and reserves the
            amount from your balance. A run is skipped, and you are told why, when your balance is short, the
            price is above your limit, or buying is locked or frozen.
          </CardDescription>
        </CardHeader>
        <NewScheduleForm userId={userId} />
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Your recurring buys</CardTitle>
        </CardHeader>
        <QueryState
          query={recurringBuys}
          placeholder={<Skeleton className="mx-6 mb-6 h-24" />}
          errorMessage={RECURRING_BUYS_FAILED_MESSAGE}
        >
          {(data) => <Schedules userId={userId} data={data} />}
        </QueryState>
      </Card>
    </div>
  );
}
