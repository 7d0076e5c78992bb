import { LineChartIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { coinName } from '@domain/coins.ts';
import { formatPercent, formatUsd } from '@/lib/format';
import { useHoldings } from '../api/get-holdings';
import { usePortfolioHistory } from '../api/get-portfolio-history';
import { usePriceHistory } from '../api/get-price-history';
import {
  historyRangeLabels,
  historyRanges,
  summarizeHistory,
  type HistoryPoint,
  type HistoryRange,
} from '../utils/history';

// uPlot and its styles load with the chart, on the wallet page only: never in the landing page's bundle.
const HistoryChart = lazy(() => import('./history-chart'));

/** The series shown: the portfolio's value, or the id of a coin held (its price). */
const PORTFOLIO = 'portfolio';

const chartPlaceholder = <Skeleton className="h-60 w-full" />;

/** A row of buttons of which one is chosen (pressed). */
function ChoiceGroup<Value extends string>({
  label,
  choices,
  chosen,
  onChoose,
}: {
  label: string;
  choices: readonly { value: Value; label: string }[];
  chosen: Value;
  onChoose: (value: Value) => void;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1">
      {choices.map((choice) => (
        <Button
          key={choice.value}
          size="sm"
          variant={choice.value === chosen ? 'default' : 'outline'}
          aria-pressed={choice.value === chosen}
          onClick={() => onChoose(choice.value)}
        >
          {choice.label}
        </Button>
      ))}
    </div>
  );
}

const signedUsd = (value: number) => `${value >= 0 ? '+' : ''}${formatUsd(value)}`;

/** The chart in words: where it starts and ends, its high and low, and the change over the range. */
function HistoryInWords({ points, title }: { points: readonly HistoryPoint[]; title: string }) {
  const summary = summarizeHistory(points);
  if (!summary) return null;
  const percent =
    summary.changePercent === undefined
      ? ''
      : ` (${summary.changePercent >= 0 ? '+' : ''}${formatPercent(summary.changePercent)})`;
  return (
    <figcaption className="text-muted-foreground text-sm" data-testid="history-summary">
      {title}: from {formatUsd(summary.first)} to {formatUsd(summary.last)}, {signedUsd(summary.change)}
      {percent}; high {formatUsd(summary.high)}, low {formatUsd(summary.low)}.
    </figcaption>
  );
}

/**
 * 'History': the portfolio's value over time, or the price of a coin held, over 24 hours, 7 days, 30 days
 * or all that is kept, drawn from the server's price snapshots. Loads and fails through the shared
 * first-load mechanism; the chart's code loads lazily.
 */
export function HistoryCard({ userId }: { userId: string }) {
  const holdings = useHoldings(userId);
  const [series, setSeries] = useState<string>(PORTFOLIO);
  const [range, setRange] = useState<HistoryRange>('24h');
  const portfolio = usePortfolioHistory(userId, range, { enabled: series === PORTFOLIO });
  const price = usePriceHistory(series, range, { enabled: series !== PORTFOLIO });
  const history = series === PORTFOLIO ? portfolio : price;
  const title = `${series === PORTFOLIO ? 'Portfolio value' : `${coinName(series)} price`} over ${historyRangeLabels[range]}`;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LineChartIcon className="text-primary size-4" aria-hidden />
          History
        </CardTitle>
        <CardDescription>
          Your portfolio&apos;s value (USD balance and coins together) and the price of each coin you hold,
          over time
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <ChoiceGroup
            label="Show"
            choices={[
              { value: PORTFOLIO, label: 'Portfolio' },
              ...(holdings.data ?? []).map((holding) => ({
                value: holding.cryptocurrency,
                label: coinName(holding.cryptocurrency),
              })),
            ]}
            chosen={series}
            onChoose={setSeries}
          />
          <ChoiceGroup
            label="Range"
            choices={historyRanges.map((value) => ({ value, label: historyRangeLabels[value] }))}
            chosen={range}
            onChoose={setRange}
          />
        </div>
        <QueryState query={history} placeholder={chartPlaceholder} errorMessage="Failed to load the history">
          {(points) =>
            points.length < 2 ? (
              <p className="text-muted-foreground flex h-60 items-center justify-center text-sm">
                No history for this range yet.
              </p>
            ) : (
              <figure className="grid gap-2">
                <Suspense fallback={chartPlaceholder}>
                  <HistoryChart points={points} label={title} />
                </Suspense>
                <HistoryInWords points={points} title={title} />
              </figure>
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}
