import { render, screen, within } from '@testing-library/react';
import type { SellRequest } from '../api/get-sell-requests';
import { SellRequestsCard } from './sell-requests-card';

const hourFromNow = new Date(Date.now() + 60 * 60 * 1000).toISOString();
const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();

const request = (overrides: Partial<SellRequest>): SellRequest => ({
  id: crypto.randomUUID(),
  cryptocurrency: 'bitcoin',
  quantity: '0.015',
  limitPrice: 49_000,
  status: 'pending',
  date: hourAgo,
  expiresAt: hourFromNow,
  ...overrides,
});

function renderCard(requests: SellRequest[], prices = new Map([['bitcoin', 50_000]])) {
  render(
    <SellRequestsCard
      requests={{ data: requests, isPending: false, error: null }}
      coinNames={new Map([['bitcoin', 'Bitcoin']])}
      prices={prices}
    />,
  );
  return screen.queryAllByTestId('sell-request-row').map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  );
}

describe('Your Sell Requests', () => {
  it('lists each request with its coin by name, exact quantity, limit and status', () => {
    const rows = renderCard([
      request({}),
      request({ status: 'approved', limitPrice: null, cryptocurrency: 'bitcoin', quantity: '0.00000001' }),
    ]);
    expect(rows.map((cells) => cells.slice(1))).toEqual([
      ['Bitcoin', '0.015', '$49,000.00', 'Pending'],
      ['Bitcoin', '0.00000001', 'None', 'Approved'],
    ]);
  });

  it('reads a pending request past its expiry as expired', () => {
    const [row] = renderCard([request({ expiresAt: hourAgo })]);
    expect(row?.at(-1)).toBe('Expired');
  });

  it('says under a pending request when the price has fallen below its limit', () => {
    const [row] = renderCard([request({ limitPrice: 49_000 })], new Map([['bitcoin', 48_000]]));
    expect(row?.at(-1)).toBe('PendingThe price is below your limit of $49,000.00');
  });

  it('says so when there are none', () => {
    renderCard([]);
    expect(screen.getByText('You have no sell requests at the moment.')).toBeInTheDocument();
  });

  it('shows the failure when the requests could not be read', () => {
    render(
      <SellRequestsCard
        requests={{ data: undefined, isPending: false, error: new Error('offline') }}
        coinNames={new Map()}
        prices={new Map()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch sell requests');
  });
});
