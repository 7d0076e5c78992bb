// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { MarketFeedsProvider, useMarketCoins } from './market-feed';

function bitcoinAt(price: number) {
  return [
    {
      id: 'bitcoin',
      symbol: 'btc',
      name: 'Bitcoin',
      image: '',
      current_price: price,
      market_cap: 1e12,
      market_cap_rank: 1,
      price_change_percentage_24h: 1,
    },
  ];
}

/** The market-data provider, the only party a test may stub; answers the current price. */
function stubProvider() {
  const market = { price: 100 };
  const provider = vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
    const answer = Response.json(bitcoinAt(market.price));
    return init?.signal?.aborted
      ? Promise.reject(new DOMException('Aborted', 'AbortError'))
      : Promise.resolve(answer);
  });
  vi.stubGlobal('fetch', provider);
  return { provider, market };
}

function PriceOf({ label, count = 10 }: { label: string; count?: number }) {
  const { data } = useMarketCoins(count);
  return <p>{`${label}: ${data ? String(data.coins[0]?.current_price) : 'loading'}`}</p>;
}

function Screens({ shown }: { shown: readonly string[] }) {
  return (
    <MarketFeedsProvider>
      {shown.map((label) => (
        <PriceOf key={label} label={label} />
      ))}
    </MarketFeedsProvider>
  );
}

describe('the market feed', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));

  it('makes one request for every screen showing the same coins, and refreshes them all each minute', async () => {
    const { provider, market } = stubProvider();
    render(<Screens shown={['landing', 'wallet']} />);
    expect(await screen.findByText('landing: 100')).toBeInTheDocument();
    expect(screen.getByText('wallet: 100')).toBeInTheDocument();
    expect(provider).toHaveBeenCalledTimes(1);

    market.price = 101;
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.getByText('landing: 101')).toBeInTheDocument();
    expect(screen.getByText('wallet: 101')).toBeInTheDocument();
    expect(provider).toHaveBeenCalledTimes(2);
  });

  it('stops asking once no screen shows the coins', async () => {
    const { provider } = stubProvider();
    const { unmount } = render(<Screens shown={['landing']} />);
    await screen.findByText('landing: 100');
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(5 * 60_000));
    expect(provider).toHaveBeenCalledTimes(1);
  });

  it('shows the last prices at once on the next screen within the minute, then refreshes on time', async () => {
    const { provider, market } = stubProvider();
    const { rerender } = render(<Screens shown={['landing']} />);
    await screen.findByText('landing: 100');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    rerender(<Screens shown={[]} />);
    market.price = 102;
    rerender(<Screens shown={['wallet']} />);
    expect(screen.getByText('wallet: 100')).toBeInTheDocument();
    expect(provider).toHaveBeenCalledTimes(1);

    await act(() => vi.advanceTimersByTimeAsync(40_000));
    expect(screen.getByText('wallet: 102')).toBeInTheDocument();
    expect(provider).toHaveBeenCalledTimes(2);
  });

  it('keeps a separate feed per coin count', async () => {
    const { provider } = stubProvider();
    render(
      <MarketFeedsProvider>
        <PriceOf label="top 10" />
        <PriceOf label="top 2" count={2} />
      </MarketFeedsProvider>,
    );
    await screen.findByText('top 10: 100');
    await screen.findByText('top 2: 100');
    expect(provider.mock.calls.map(([url]) => new URL(String(url)).searchParams.get('per_page'))).toEqual([
      '10',
      '2',
    ]);
  });

  it('refuses to run outside its provider, naming what is missing', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<PriceOf label="orphan" />)).toThrow(
      'useMarketCoins must be used within a MarketFeedsProvider',
    );
  });
});
