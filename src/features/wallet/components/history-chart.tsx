import { useEffect, useRef, useSyncExternalStore } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatUsd } from '@/lib/format';
import { currentTheme, subscribeToTheme } from '@/lib/theme';
import type { HistoryPoint } from '../utils/history';

/** The chart's height in CSS pixels; its placeholders take the same (`h-60`), so nothing shifts. */
const HEIGHT = 240;

/** A semantic token's colour as the page resolves it in the current theme. */
function tokenColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/**
 * A history drawn by uPlot on a canvas: time across, USD up, in the theme's colours (drawn again when the
 * theme changes) and as wide as its box. The card loads this module lazily, so uPlot's code reaches only
 * the wallet page, and says what the chart shows in words beside it (the canvas itself is hidden from
 * assistive technology).
 */
export default function HistoryChart({ points, label }: { points: readonly HistoryPoint[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useSyncExternalStore(subscribeToTheme, currentTheme, () => 'light' as const);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const axis = {
      stroke: tokenColour('--muted-foreground'),
      grid: { stroke: tokenColour('--border'), width: 1 },
      ticks: { stroke: tokenColour('--border'), width: 1 },
    };
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        scales: { x: { time: true } },
        axes: [
          axis,
          {
            ...axis,
            size: 64,
            values: (_chart, ticks) => ticks.map((tick) => formatUsd(tick, { precision: 'compact' })),
          },
        ],
        series: [{}, { label, stroke: tokenColour('--primary'), width: 2, points: { show: false } }],
      },
      [points.map((point) => point.at.getTime() / 1000), points.map((point) => point.value)],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, label, theme]);

  return <div ref={box} data-testid="history-chart" className="h-60 w-full overflow-hidden" aria-hidden />;
}
