/** The chart's ranges, as the history RPCs name them, and their labels on the range buttons. */
export const historyRanges = ['24h', '7d', '30d', 'all'] as const;
export type HistoryRange = (typeof historyRanges)[number];

export const historyRangeLabels: Record<HistoryRange, string> = {
  '24h': '24 h',
  '7d': '7 d',
  '30d': '30 d',
  all: 'All',
};

/** One point of a history: a snapshot's minute and a USD amount (a price, or the portfolio's value). */
export interface HistoryPoint {
  at: Date;
  value: number;
}

/** A history's points from an RPC's rows, oldest first as the database sends them. */
export function historyPointsOf<Row extends { captured_at: string }>(
  rows: readonly Row[],
  valueOf: (row: Row) => number,
): HistoryPoint[] {
  return rows.map((row) => ({ at: new Date(row.captured_at), value: valueOf(row) }));
}

/** What a chart shows at a glance, said in words for those who do not see it. */
export interface HistorySummary {
  first: number;
  last: number;
  high: number;
  low: number;
  change: number;
  /** The change as a percentage of the first value; undefined from 0 (nothing held at first). */
  changePercent: number | undefined;
}

/** First, last, high and low of the points and the change over them; undefined without points. */
export function summarizeHistory(points: readonly HistoryPoint[]): HistorySummary | undefined {
  const [firstPoint] = points;
  const lastPoint = points.at(-1);
  if (!firstPoint || !lastPoint) return undefined;
  const values = points.map((point) => point.value);
  const change = lastPoint.value - firstPoint.value;
  return {
    first: firstPoint.value,
    last: lastPoint.value,
    high: Math.max(...values),
    low: Math.min(...values),
    change,
    changePercent: firstPoint.value > 0 ? (change / firstPoint.value) * 100 : undefined,
  };
}
