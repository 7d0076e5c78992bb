import { render, screen, within } from '@testing-library/react';
import { formatDate, formatTime } from '@/lib/format';
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
  },
  {
    id: '2',
    cryptocurrency: 'solana',
    amount: 20.5,
    status: 'approved',
    date: '2026-11-20T10:00:00Z',
    expires_at: aDayAgo,
    limit_price: null,
  },
  {
    id: '1',
    cryptocurrency: 'bitcoin',
    amount: 10,
    status: 'rejected',
    date: '2026-11-19T10:00:00Z',
    expires_at: aDayAgo,
    limit_price: null,
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
    expect(headers).toEqual(['Date', 'Cryptocurrency', 'Amount (USD)', 'Status']);
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
});
