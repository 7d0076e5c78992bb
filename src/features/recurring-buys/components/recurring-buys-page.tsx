import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ErrorMessage } from '@/components/error-message';
import { MarketCoinField } from '@/components/market-coin-field';
import { UsdAmountField } from '@/components/usd-amount-field';
import { QueryState } from '@/components/query-state';
import { formatDateTime, formatUsd } from '@/lib/format';
import { useMarketCoins } from '@/lib/market-feed';
import { useChangeRecurringBuy } from '../api/change-recurring-buy';
import { useCreateRecurringBuy, type RecurringBuyTerms } from '../api/create-recurring-buy';
import {
  RECURRING_BUYS_FAILED_MESSAGE,
  useRecurringBuys,
  type RecurringBuy,
  type RecurringBuys,
} from '../api/get-recurring-buys';
import { useUpdateRecurringBuy } from '../api/update-recurring-buy';
import { describeSchedule, weekdays } from '../utils/describe-schedule';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const frequencies = {
  daily: 'Every day',
  weekly: 'Every week',
  twice_monthly: 'Twice a month (the 1st and the 15th)',
  monthly: 'Every month',
} as const;
const isFrequency = (value: string): value is RecurringBuyTerms['frequency'] => value in frequencies;
const tolerances = [1, 2, 5];
const expiries = { 1: '1 hour', 24: '24 hours', 72: '3 days', 168: '7 days', 720: '30 days' } as const;

interface ScheduleFormProps {
  /** The terms the form starts from: a new schedule's defaults, or the schedule being changed. */
  initial: Partial<RecurringBuyTerms> & Pick<RecurringBuyTerms, 'timeZone'>;
  label: string;
  submitLabel: string;
  pendingLabel: string;
  isPending: boolean;
  error: Error | null;
  onSubmit: (terms: RecurringBuyTerms, reset: () => void) => void;
  onCancel?: () => void;
}

/** The terms of a schedule, for a new one or to change one: coin, amount, when, tolerance, ceiling, expiry. */
function ScheduleForm({
  initial,
  label,
  submitLabel,
  pendingLabel,
  isPending,
  error,
  onSubmit,
  onCancel,
}: ScheduleFormProps) {
  const market = useMarketCoins();
  const [coin, setCoin] = useState(initial.cryptocurrency ?? '');
  const [amount, setAmount] = useState(initial.amount === undefined ? '' : String(initial.amount));
  const [frequency, setFrequency] = useState<RecurringBuyTerms['frequency']>(initial.frequency ?? 'weekly');
  const [dayOfWeek, setDayOfWeek] = useState(initial.dayOfWeek ?? 1);
  const [dayOfMonth, setDayOfMonth] = useState(initial.dayOfMonth ?? 1);
  const [timeOfDay, setTimeOfDay] = useState(initial.timeOfDay ?? '09:00');
  const [tolerance, setTolerance] = useState(initial.tolerancePercent ?? 2);
  const [ceiling, setCeiling] = useState(
    initial.priceCeiling === undefined ? '' : String(initial.priceCeiling),
  );
  const [expiryHours, setExpiryHours] = useState(initial.expiryHours ?? 24);
  const coins = market.data?.coins ?? [];
  const timeZone = initial.timeZone;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(
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
        expiryHours,
      },
      () => {
        setAmount('');
        setCeiling('');
      },
    );
  };

  return (
    <CardContent>
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} aria-label={label}>
        <MarketCoinField label="Coin" coins={coins} value={coin} onValueChange={setCoin}>
          {/* A schedule's coin stays choosable even when the market list no longer shows it. */}
          {coin && !coins.some((item) => item.id === coin) && <option value={coin}>{coin}</option>}
        </MarketCoinField>
        <UsdAmountField label="Amount (USD) each time" required value={amount} onValueChange={setAmount} />
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
              {[...new Set([...tolerances, tolerance])].map((percent) => (
                <option key={percent} value={percent}>
                  Up to {percent} % above the price at the time
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <FormField label="Each buy waits for approval">
          {(control) => (
            <NativeSelect
              {...control}
              value={expiryHours}
              onChange={(event) => setExpiryHours(Number(event.target.value))}
            >
              {Object.entries(expiries).map(([hours, name]) => (
                <option key={hours} value={hours}>
                  Up to {name}
                </option>
              ))}
              {!(expiryHours in expiries) && <option value={expiryHours}>Up to {expiryHours} hours</option>}
            </NativeSelect>
          )}
        </FormField>
        <UsdAmountField
          label="Skip when the price is above (USD, optional)"
          value={ceiling}
          onValueChange={setCeiling}
        />
        <div className="grid gap-2 sm:col-span-2">
          <div className="flex gap-2">
            <Button type="submit" className="w-fit" disabled={isPending || (coins.length === 0 && !coin)}>
              {isPending ? pendingLabel : submitLabel}
            </Button>
            {onCancel && (
              <Button type="button" variant="outline" onClick={onCancel}>
                Cancel
              </Button>
            )}
          </div>
          {error && <ErrorMessage>{error.message}</ErrorMessage>}
        </div>
      </form>
    </CardContent>
  );
}

function NewScheduleForm({ userId }: { userId: string }) {
  const create = useCreateRecurringBuy(userId);
  // One key per filled-in form: a retry after a lost answer makes no second schedule.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  return (
    <ScheduleForm
      initial={{ timeZone: browserTimeZone() }}
      label="New recurring buy"
      submitLabel="Schedule recurring buy"
      pendingLabel="Scheduling…"
      isPending={create.isPending}
      error={create.error}
      onSubmit={(terms, reset) =>
        create.mutate(
          { ...terms, idempotencyKey },
          {
            onSuccess: () => {
              reset();
              setIdempotencyKey(crypto.randomUUID());
            },
          },
        )
      }
    />
  );
}

/** The schedule's own terms, in the form's shape (numbers come back from the database as numbers). */
const termsOf = (schedule: RecurringBuy): RecurringBuyTerms => ({
  cryptocurrency: schedule.cryptocurrency,
  amount: schedule.amount,
  frequency: isFrequency(schedule.frequency) ? schedule.frequency : 'daily',
  dayOfWeek: schedule.day_of_week ?? undefined,
  dayOfMonth: schedule.day_of_month ?? undefined,
  timeOfDay: schedule.time_of_day.slice(0, 5),
  timeZone: schedule.time_zone,
  tolerancePercent: schedule.tolerance_percent,
  priceCeiling: schedule.price_ceiling ?? undefined,
  expiryHours: schedule.expiry_hours,
});

function EditScheduleForm({
  userId,
  schedule,
  onDone,
}: {
  userId: string;
  schedule: RecurringBuy;
  onDone: () => void;
}) {
  const update = useUpdateRecurringBuy(userId);
  return (
    <ScheduleForm
      initial={termsOf(schedule)}
      label={`Change the ${schedule.cryptocurrency} recurring buy`}
      submitLabel="Save changes"
      pendingLabel="Saving…"
      isPending={update.isPending}
      error={update.error}
      onSubmit={(terms) => update.mutate({ id: schedule.id, ...terms }, { onSuccess: onDone })}
      onCancel={onDone}
    />
  );
}

function Schedules({ userId, data }: { userId: string; data: RecurringBuys }) {
  const change = useChangeRecurringBuy(userId);
  const [editing, setEditing] = useState<string | null>(null);
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
                  {` · each buy waits up to ${schedule.expiry_hours} h`}
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
                  disabled={editing === schedule.id}
                  onClick={() => setEditing(schedule.id)}
                >
                  Edit
                </Button>
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
            {editing === schedule.id && (
              <EditScheduleForm userId={userId} schedule={schedule} onDone={() => setEditing(null)} />
            )}
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
 * /user/recurring-buys: schedule a buy of a dollar amount daily, weekly, twice a month or monthly at a time in
 * this device's time zone, each run an ordinary buy request at the price then plus a tolerance; change, pause,
 * resume or delete a schedule, and read what each run did.
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
