import { valuePortfolio } from './portfolio';

describe('valuePortfolio', () => {
  it('values each coin at its live price, with the cost and the unrealised profit or loss', () => {
    const portfolio = valuePortfolio(
      [
        { cryptocurrency: 'bitcoin', quantity: 0.5, averageCost: 40_000, available: '0.5' },
        { cryptocurrency: 'ethereum', quantity: 2, averageCost: 2_500, available: '2' },
      ],
      new Map([
        ['bitcoin', 50_000],
        ['ethereum', 2_000],
      ]),
    );
    expect(portfolio.positions).toEqual([
      expect.objectContaining({
        cryptocurrency: 'bitcoin',
        value: 25_000,
        cost: 20_000,
        profit: 5_000,
        profitPercent: 25,
      }),
      expect.objectContaining({
        cryptocurrency: 'ethereum',
        value: 4_000,
        cost: 5_000,
        profit: -1_000,
        profitPercent: -20,
      }),
    ]);
    expect(portfolio).toMatchObject({ value: 29_000, cost: 25_000, profit: 4_000, profitPercent: 16 });
  });

  it('leaves a coin without a live price unvalued, and out of the total', () => {
    const portfolio = valuePortfolio(
      [
        { cryptocurrency: 'bitcoin', quantity: 1, averageCost: 100, available: '1' },
        { cryptocurrency: 'delisted', quantity: 3, averageCost: 10, available: '3' },
      ],
      new Map([['bitcoin', 110]]),
    );
    expect(portfolio.positions[1]).toMatchObject({ value: undefined, profit: undefined, cost: 30 });
    expect(portfolio).toMatchObject({ value: 110, profit: 10, profitPercent: 10 });
  });

  it('has no value until a price is known', () => {
    expect(
      valuePortfolio([{ cryptocurrency: 'bitcoin', quantity: 1, averageCost: 1, available: '1' }], new Map()),
    ).toMatchObject({
      value: undefined,
      profit: undefined,
    });
  });
});
