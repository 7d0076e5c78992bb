import type { Holding } from '../api/get-holdings';

/** A holding valued at the live price (when the market list has the coin). */
export interface PortfolioPosition extends Holding {
  price: number | undefined;
  value: number | undefined;
  /** What the coins held cost: quantity × average cost. */
  cost: number;
  /** Unrealised profit (or loss, below 0) in USD, and as a percentage of the cost. */
  profit: number | undefined;
  profitPercent: number | undefined;
}

export interface Portfolio {
  positions: PortfolioPosition[];
  /** Sum of the positions with a live price; undefined until one has. */
  value: number | undefined;
  cost: number;
  profit: number | undefined;
  profitPercent: number | undefined;
}

const percentOf = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : undefined);

/** Values each holding at the live price and sums them: the portfolio as the wallet page shows it. */
export function valuePortfolio(holdings: readonly Holding[], prices: ReadonlyMap<string, number>): Portfolio {
  const positions = holdings.map((holding): PortfolioPosition => {
    const price = prices.get(holding.cryptocurrency);
    const cost = holding.quantity * holding.averageCost;
    const value = price === undefined ? undefined : holding.quantity * price;
    const profit = value === undefined ? undefined : value - cost;
    return {
      ...holding,
      price,
      value,
      cost,
      profit,
      profitPercent: profit === undefined ? undefined : percentOf(profit, cost),
    };
  });
  const priced = positions.filter((position) => position.value !== undefined);
  const value =
    priced.length > 0 ? priced.reduce((sum, position) => sum + (position.value ?? 0), 0) : undefined;
  const pricedCost = priced.reduce((sum, position) => sum + position.cost, 0);
  const profit = value === undefined ? undefined : value - pricedCost;
  return {
    positions,
    value,
    cost: positions.reduce((sum, position) => sum + position.cost, 0),
    profit,
    profitPercent: profit === undefined ? undefined : percentOf(profit, pricedCost),
  };
}
