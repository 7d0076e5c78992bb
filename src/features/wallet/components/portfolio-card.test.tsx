// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import type { MarketCoin } from '@/lib/market';
import type { Holding } from '../api/get-holdings';
import { PortfolioCard } from './portfolio-card';

const coin = (id: string, name: string, price: number): MarketCoin => ({
  id,
  symbol: id.slice(0, 3),
  name,
  image: '',
  current_price: price,
  market_cap: 1,
  market_cap_rank: 1,
  price_change_percentage_24h: 0,
});

function renderCard(holdings: Holding[], coins: MarketCoin[]) {
  render(
    <PortfolioCard
      holdings={{ data: holdings, isPending: false, error: null }}
      coins={coins}
      balance={{ balance: 1200, reserved: 200, available: 1000 }}
    />,
  );
}

describe('Portfolio card', () => {
  it('shows each coin held with its quantity, live value, average cost and profit or loss, and the total', () => {
    renderCard(
      [
        { cryptocurrency: 'bitcoin', quantity: 0.5, averageCost: 40_000, available: '0.5' },
        { cryptocurrency: 'ethereum', quantity: 2, averageCost: 2_500, available: '2' },
      ],
      [coin('bitcoin', 'Bitcoin', 50_000), coin('ethereum', 'Ethereum', 2_000)],
    );
    const cellsOf = (row: number) =>
      within(screen.getAllByTestId('portfolio-row')[row] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cellsOf(0)).toEqual([
      expect.stringContaining('Bitcoin'),
      '0.50000000',
      '$25,000.00',
      '$40,000.00',
      '+$5,000.00 (+25.00%)',
    ]);
    expect(cellsOf(1)).toEqual([
      expect.stringContaining('Ethereum'),
      '2.00000000',
      '$4,000.00',
      '$2,500.00',
      '-$1,000.00 (-20.00%)',
    ]);
    expect(screen.getByTestId('portfolio-total')).toHaveTextContent(
      'Total$29,000.00$25,000.00+$4,000.00 (+16.00%)',
    );
  });

  it('shows the USD balance beside the coins', () => {
    renderCard([], []);
    expect(screen.getByTestId('portfolio-usd-balance')).toHaveTextContent('USD balance$1,000.00');
    expect(screen.getByText('You hold no coins yet: approved buy requests appear here.')).toBeInTheDocument();
  });

  it('shows a dash for the value of a coin the market list does not price', () => {
    renderCard([{ cryptocurrency: 'some-coin', quantity: 3, averageCost: 10, available: '3' }], []);
    const row = screen.getByTestId('portfolio-row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Some coin', '3.00000000', '—', '$10.00', '—']);
  });

  it('shows placeholder rows until the holdings arrive, the USD balance already', () => {
    render(
      <PortfolioCard
        holdings={{ data: undefined, isPending: true, error: null }}
        coins={[]}
        balance={{ balance: 1200, reserved: 200, available: 1000 }}
      />,
    );
    expect(screen.queryByTestId('portfolio-row')).not.toBeInTheDocument();
    expect(screen.queryByTestId('portfolio-total')).not.toBeInTheDocument();
    expect(screen.getByTestId('portfolio-usd-balance')).toHaveTextContent('USD balance$1,000.00');
  });

  it('says the portfolio failed to load, as an alert, when the holdings query failed', () => {
    render(
      <PortfolioCard
        holdings={{ data: undefined, isPending: false, error: new Error('permission denied') }}
        coins={[]}
        balance={undefined}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load your portfolio');
  });
});
