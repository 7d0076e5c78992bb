// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast, Toaster } from 'sonner';
import { AuthProvider } from '@/lib/auth';
import { MarketFeedsProvider } from '@/lib/market-feed';
import { createQueryClient } from '@/lib/query-client';
import { transactionLimitsQueryKey } from '@/lib/transaction-limits';
import { BuyCrypto } from './buy-crypto';
import { sessionFlagIsSet, setSessionFlag } from '@/lib/session-flags';

/** The market-data provider is the one party stubbed; any other request would be a test bug. */
function stubMarketFeed(answer: () => Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) =>
      String(input).includes('/coins/markets?')
        ? answer()
        : Promise.reject(new Error(`Unexpected request to ${String(input)}`)),
    ),
  );
}

const coins = [
  { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', image: '', current_price: 30000, market_cap: 1 },
  { id: 'solana', symbol: 'sol', name: 'Solana', image: '', current_price: 150, market_cap: 1 },
];

/** No one is signed in (nothing stored), and the limits are already in the cache as the API gave them. */
function renderBuyPage() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(transactionLimitsQueryKey, { minAmount: 10, maxAmount: 10000 });
  render(
    <QueryClientProvider client={queryClient}>
      <MarketFeedsProvider>
        <AuthProvider>
          <BuyCrypto />
        </AuthProvider>
      </MarketFeedsProvider>
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('/user/buy page', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    toast.dismiss();
  });

  it('shows the title and a skeleton while the market data loads', async () => {
    stubMarketFeed(() => new Promise<Response>(() => undefined));
    renderBuyPage();
    expect(screen.getByRole('heading', { name: 'Buy Cryptocurrency' })).toBeInTheDocument();
    expect(await screen.findByText('Loading…')).toBeInTheDocument();
    expect(screen.queryByLabelText('Cryptocurrency')).not.toBeInTheDocument();
  });

  it('says the cryptocurrency data failed and offers Retry, rather than buying at sample prices', async () => {
    stubMarketFeed(() => Promise.resolve(new Response('upstream down', { status: 502 })));
    renderBuyPage();
    expect(
      await screen.findByText('Failed to fetch cryptocurrency data. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Cryptocurrency')).not.toBeInTheDocument();
  });

  it('offers the loaded coins and refuses to buy when nobody is signed in', async () => {
    // The limits notice (a modal, 1.5 s after the page opens) would take the pointer on a busy machine.
    setSessionFlag('hasSeenBuyLimits');
    stubMarketFeed(() => Promise.resolve(Response.json(coins)));
    renderBuyPage();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Cryptocurrency'), 'solana');
    await user.type(screen.getByLabelText('Amount (USD)'), '300');
    // The estimate follows the typed amount on the form's next render.
    await waitFor(() => expect(screen.getByTestId('buy-estimate')).toHaveTextContent('2.00000000 SOL'));
    await user.click(screen.getByRole('button', { name: 'Submit Buy Request' }));
    expect(await screen.findByText('You must be logged in to make a purchase')).toBeInTheDocument();
  });

  it('shows the limits notice under its own session flag, hasSeenBuyLimits', async () => {
    setSessionFlag('hasSeenLimits');
    stubMarketFeed(() => Promise.resolve(Response.json(coins)));
    renderBuyPage();
    const understood = await screen.findByRole('button', { name: 'I Understand' }, { timeout: 3000 });
    await userEvent.setup().click(understood);
    expect(sessionFlagIsSet('hasSeenBuyLimits')).toBe(true);
  });
});
