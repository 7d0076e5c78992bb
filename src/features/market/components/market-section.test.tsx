// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import { MarketFeedsProvider } from '@/lib/market-feed';
import { MarketSection } from './market-section';

function coin(id: string, rank: number, price: number, change: number | null, cap: number) {
  return {
    id,
    symbol: id.slice(0, 3),
    name: id.charAt(0).toUpperCase() + id.slice(1),
    image: '',
    current_price: price,
    market_cap: cap,
    market_cap_rank: rank,
    price_change_percentage_24h: change,
  };
}

const market = [
  coin('bitcoin', 1, 95846.014, 0.7, 1897750931748),
  coin('ethereum', 2, 3400.5, 0, 409706025000),
  coin('ripple', 3, 2.1534, -11.4023, 122743800000),
];

/** Stands in for the market-data provider (the only thing tests may stub). */
function stubProvider(respond: () => Response | Promise<Response>) {
  const provider = vi.fn(() => Promise.resolve().then(respond));
  vi.stubGlobal('fetch', provider);
  return provider;
}

function renderSection() {
  return render(
    <MarketFeedsProvider>
      <MarketSection />
    </MarketFeedsProvider>,
  );
}

const table = () => screen.getByRole('table');
const rowOf = (name: string) => within(table()).getByRole('row', { name: new RegExp(name) });

describe('the live market section', () => {
  it('shows a loading text and a skeleton of 10 rows until the data arrives', async () => {
    stubProvider(() => new Promise<Response>(() => undefined));
    const { container } = renderSection();
    expect(screen.getByRole('heading', { name: 'Live Cryptocurrency Market Data' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading cryptocurrency data...');
    const skeletonTable = container.querySelector('table[aria-hidden]');
    expect(skeletonTable?.querySelectorAll('tbody tr')).toHaveLength(10);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lists the coins in a table with Rank, Name, Price, 24h Change and Market Cap', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Rank', 'Name', 'Price', '24h Change', 'Market Cap']);
    expect(within(table()).getAllByRole('row')).toHaveLength(1 + market.length);
    expect(screen.queryByText('Loading cryptocurrency data...')).not.toBeInTheDocument();
  });

  it('shows prices with two decimals and market caps with thousands separators', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    const bitcoin = within(rowOf('Bitcoin'));
    expect(bitcoin.getByText('$95,846.01')).toBeInTheDocument();
    expect(bitcoin.getByText('$1,897,750,931,748')).toBeInTheDocument();
    expect(within(rowOf('Ripple')).getByText('$2.15')).toBeInTheDocument();
  });

  it('shows symbols in upper case', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    expect(within(rowOf('Bitcoin')).getByText('BIT')).toBeInTheDocument();
  });

  it('shows a rise, and no change, in green with an up arrow and two decimals', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    for (const [name, text] of [
      ['Bitcoin', '0.70%'],
      ['Ethereum', '0.00%'],
    ] as const) {
      const change = within(rowOf(name)).getByText(text);
      expect(change).toHaveClass('text-success');
      expect(within(change).getByRole('img', { name: 'up' })).toBeInTheDocument();
    }
  });

  it('shows a fall in red with a down arrow and two decimals', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    const change = within(rowOf('Ripple')).getByText('-11.40%');
    expect(change).toHaveClass('text-destructive');
    expect(within(change).getByRole('img', { name: 'down' })).toBeInTheDocument();
  });

  it('shows the same coins as cards for small screens', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    const [bitcoin, , ripple, ...others] = screen.getAllByRole('listitem');
    expect(others).toHaveLength(0);
    expect(within(ripple as HTMLElement).getByText('-11.40%')).toHaveClass('text-destructive');
    expect(within(bitcoin as HTMLElement).getByText('$95,846.01')).toBeInTheDocument();
    expect(within(bitcoin as HTMLElement).getByText('#1')).toBeInTheDocument();
  });

  it('falls back to the built-in Bitcoin and Ethereum sample, with no message, when the feed fails', async () => {
    stubProvider(() => new Response('Too Many Requests', { status: 429 }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSection();
    await screen.findByRole('table');
    const rows = within(table()).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^1.*Bitcoin.*BTC.*\$30,000\.00.*1\.50%/),
      expect.stringMatching(/^2.*Ethereum.*ETH.*\$2,000\.00.*2\.10%/),
    ]);
    expect(screen.getByRole('status')).not.toHaveTextContent(/fail|error/i);
    expect(screen.queryByText(/simulated/i)).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled();
  });

  it('says quietly when the prices are simulated', async () => {
    stubProvider(() => Response.json(market, { headers: { 'x-market-source': 'simulator' } }));
    renderSection();
    expect(await screen.findByText(/Simulated prices/)).toBeInTheDocument();
  });

  it('says nothing about simulation for real provider data', async () => {
    stubProvider(() => Response.json(market));
    renderSection();
    await screen.findByRole('table');
    expect(screen.queryByText(/simulated/i)).not.toBeInTheDocument();
  });

  it('refreshes the prices every minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let price = 100;
    const provider = stubProvider(() => Response.json([coin('bitcoin', 1, price, 1, 1e9)]));
    renderSection();
    await screen.findByText('$100.00', { selector: 'td' });
    price = 123.456;
    await vi.advanceTimersByTimeAsync(59_000);
    expect(provider).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await screen.findByText('$123.46', { selector: 'td' })).toBeInTheDocument();
    expect(provider).toHaveBeenCalledTimes(2);
  });
});
