// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { formatDateTime } from '@/lib/format';
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
  rejectionReason: null,
  fillPrice: null,
  credited: null,
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
      request({
        status: 'approved',
        limitPrice: null,
        cryptocurrency: 'bitcoin',
        quantity: '0.00000001',
        fillPrice: 50_000,
        credited: 0.01,
      }),
      request({ status: 'rejected', rejectionReason: 'Limit far below the market' }),
    ]);
    expect(rows.map((cells) => cells.slice(1, 5))).toEqual([
      ['Bitcoin', '0.015', '$49,000.00', `PendingExpires ${formatDateTime(hourFromNow)}`],
      ['Bitcoin', '0.00000001', 'None', 'ApprovedFilled at $50,000.00 · $0.01 credited'],
      ['Bitcoin', '0.015', '$49,000.00', 'RejectedReason: Limit far below the market'],
    ]);
  });

  it('reads a pending request past its expiry as expired', () => {
    const [row] = renderCard([request({ expiresAt: hourAgo })]);
    expect(row?.at(-2)).toBe(`ExpiredExpired ${formatDateTime(hourAgo)}`);
  });

  it('says under a pending request when the price has fallen below its limit', () => {
    const [row] = renderCard([request({ limitPrice: 49_000 })], new Map([['bitcoin', 48_000]]));
    expect(row?.at(-2)).toMatch(/^PendingThe price is below your limit of \$49,000\.00Expires /);
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
