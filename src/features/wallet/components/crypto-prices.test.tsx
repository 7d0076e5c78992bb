// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { sampleMarketCoins } from '@/lib/market';
import { CryptoPrices } from './crypto-prices';

describe('Cryptocurrency Prices', () => {
  it('shows rank, name with symbol, price with 2 decimals and the 24h change', () => {
    render(<CryptoPrices coins={sampleMarketCoins} isLoading={false} source="live" />);
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Rank',
      'Name',
      'Price',
      '24h Change',
    ]);
    const bitcoin = screen.getByRole('row', { name: /Bitcoin/ });
    const ethereum = screen.getByRole('row', { name: /Ethereum/ });
    expect(bitcoin).toHaveTextContent('1');
    expect(bitcoin).toHaveTextContent('BitcoinBTC');
    expect(bitcoin).toHaveTextContent('$30,000.00');
    expect(within(bitcoin).getByText('1.50%')).toHaveClass('text-success');
    expect(within(bitcoin).getByRole('img', { name: 'up' })).toBeInTheDocument();
    expect(ethereum).toHaveTextContent('$2,000.00');
  });

  it('shows each coin image', () => {
    const coins = sampleMarketCoins.map((coin) => ({ ...coin, image: `https://example.com/${coin.id}.png` }));
    const { container } = render(<CryptoPrices coins={coins} isLoading={false} source="live" />);
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://example.com/bitcoin.png');
  });

  it('marks the built-in sample as not current, and says nothing over live prices', () => {
    const { rerender } = render(<CryptoPrices coins={sampleMarketCoins} isLoading={false} source="sample" />);
    expect(screen.getByText(/^Sample prices, not current/)).toBeInTheDocument();
    rerender(<CryptoPrices coins={sampleMarketCoins} isLoading={false} source="live" />);
    expect(screen.queryByText(/Sample prices/)).not.toBeInTheDocument();
  });
});
