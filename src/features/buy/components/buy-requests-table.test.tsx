// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient } from '@/lib/query-client';
import { formatDate, formatDateTime, formatTime } from '@/lib/format';
import type { BuyRequest } from '../types';
import { BuyRequestsTable } from './buy-requests-table';

const coinNames = new Map([['bitcoin', 'Bitcoin']]);
const inADay = new Date(Date.now() + 86_400_000).toISOString();
const aDayAgo = new Date(Date.now() - 86_400_000).toISOString();

const requests: BuyRequest[] = [
  {
    id: '3',
    cryptocurrency: 'bitcoin',
    amount: 1500,
    status: 'pending',
    date: '2026-11-21T10:00:00Z',
    expires_at: inADay,
    limit_price: 30_600,
    rejection_reason: null,
    fill_price: null,
    quantity: null,
  },
  {
    id: '2',
    cryptocurrency: 'solana',
    amount: 20.5,
    status: 'approved',
    date: '2026-11-20T10:00:00Z',
    expires_at: aDayAgo,
    limit_price: null,
    rejection_reason: null,
    fill_price: 41,
    quantity: '0.500000000000000000',
  },
  {
    id: '1',
    cryptocurrency: 'bitcoin',
    amount: 10,
    status: 'rejected',
    date: '2026-11-19T10:00:00Z',
    expires_at: aDayAgo,
    limit_price: null,
    rejection_reason: 'Limit too far from the market',
    fill_price: null,
    quantity: null,
  },
];

describe("'Your Buy Requests' table", () => {
  it('says so when there are no requests', () => {
    render(<BuyRequestsTable requests={[]} coinNames={coinNames} />);
    expect(screen.getByText('You have no buy requests at the moment.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows Date, Cryptocurrency, Amount (USD) and Status, in the order given (newest first)', () => {
    render(<BuyRequestsTable requests={requests} coinNames={coinNames} />);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Date', 'Cryptocurrency', 'Amount (USD)', 'Status', 'Actions']);
    const rows = screen.getAllByTestId('buy-request-row');
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      '$1,500.00',
      '$20.50',
      '$10.00',
    ]);
    const [newest] = rows;
    expect(newest).toHaveTextContent(formatDate('2026-11-21T10:00:00Z'));
    expect(newest).toHaveTextContent(formatTime('2026-11-21T10:00:00Z'));
  });

  it('names every coin, also one not among the loaded coins, never by its id', () => {
    render(<BuyRequestsTable requests={requests} coinNames={coinNames} />);
    const [bitcoinRow, solanaRow] = screen.getAllByTestId('buy-request-row');
    expect(bitcoinRow).toHaveTextContent('Bitcoin');
    expect(solanaRow).toHaveTextContent('Solana');
    expect(solanaRow).not.toHaveTextContent('solana');
  });

  it('colours approved green, rejected red and pending yellow', () => {
    render(<BuyRequestsTable requests={requests} coinNames={coinNames} />);
    expect(screen.getByText('Approved')).toHaveAttribute('data-tone', 'green');
    expect(screen.getByText('Rejected')).toHaveAttribute('data-tone', 'red');
    expect(screen.getByText('Pending')).toHaveAttribute('data-tone', 'yellow');
  });

  it('shows a pending request past its expiry as expired: it can no longer be filled', () => {
    const expired: BuyRequest = {
      id: '4',
      cryptocurrency: 'bitcoin',
      amount: 100,
      status: 'pending',
      date: '2026-11-21T10:00:00Z',
      expires_at: aDayAgo,
      limit_price: null,
      rejection_reason: null,
      fill_price: null,
      quantity: null,
    };
    render(<BuyRequestsTable requests={[expired]} coinNames={coinNames} />);
    expect(screen.getByTestId('buy-request-row')).toHaveTextContent('Expired');
    expect(screen.queryByText('Pending')).not.toBeInTheDocument();
  });

  it("says under a pending request when the price has moved above the person's limit, and not before", () => {
    const { rerender } = render(
      <BuyRequestsTable requests={requests} coinNames={coinNames} prices={new Map([['bitcoin', 30_600]])} />,
    );
    expect(screen.queryByText(/above your limit/)).not.toBeInTheDocument();
    rerender(
      <BuyRequestsTable
        requests={requests}
        coinNames={coinNames}
        prices={new Map([['bitcoin', 30_600.01]])}
      />,
    );
    const [pending, , rejected] = screen.getAllByTestId('buy-request-row');
    expect(pending).toHaveTextContent('The price is above your limit of $30,600.00');
    expect(rejected).not.toHaveTextContent('above your limit');
  });

  it('shows what each order is: limit and expiry while pending, fill price and quantity once approved, the reason once rejected', () => {
    render(<BuyRequestsTable requests={requests} coinNames={coinNames} />);
    const [pending, approved, rejected] = screen.getAllByTestId('buy-request-row');
    expect(pending).toHaveTextContent('Limit $30,600.00');
    expect(pending).toHaveTextContent(`Expires ${formatDateTime(inADay)}`);
    expect(approved).toHaveTextContent('Filled at $41.00 · 0.50000000 Solana received');
    expect(rejected).toHaveTextContent('Reason: Limit too far from the market');
  });

  it('offers Cancel on the person’s pending requests only, and asks before cancelling', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <BuyRequestsTable requests={requests} coinNames={coinNames} userId="person" />
      </QueryClientProvider>,
    );
    const [pending, approved, rejected] = screen.getAllByTestId('buy-request-row') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(approved).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rejected).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.click(
      within(pending).getByRole('button', { name: 'Cancel your buy of $1,500.00 of Bitcoin' }),
    );
    expect(await screen.findByRole('dialog', { name: 'Cancel this request?' })).toHaveTextContent(
      'This cancels your buy of $1,500.00 of Bitcoin. The amount it reserved is available again at once.',
    );
  });
});
