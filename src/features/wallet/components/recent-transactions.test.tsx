// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import type { WalletTransaction } from '../types';
import { RecentTransactions } from './recent-transactions';

const transactions: WalletTransaction[] = [
  {
    id: '2',
    type: 'buy',
    amount: 250,
    status: 'complete',
    date: '2026-11-20T10:00:00Z',
    cryptocurrency: 'bitcoin',
  },
  {
    id: '1',
    type: 'deposit',
    amount: 5000,
    status: 'pending',
    date: '2026-11-19T10:00:00Z',
    cryptocurrency: null,
  },
];

const noLoadedCoins = new Map<string, string>();

describe('Recent Transactions', () => {
  it('lists type, amount, status and date in the order given (newest first)', () => {
    render(
      <RecentTransactions
        coinNames={noLoadedCoins}
        transactions={transactions}
        isLoading={false}
        isError={false}
      />,
    );
    const table = screen.getByRole('table', { name: 'Recent Transactions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Type', 'Amount', 'Status', 'Date']);
    const [, newest, oldest] = within(table).getAllByRole('row');
    expect(newest).toHaveTextContent('Buy (Bitcoin)');
    expect(newest).toHaveTextContent('$250.00');
    expect(oldest).toHaveTextContent('Deposit');
    expect(oldest).toHaveTextContent('$5,000.00');
  });

  it('shows completed transactions green and every other status yellow', () => {
    render(
      <RecentTransactions
        coinNames={noLoadedCoins}
        transactions={transactions}
        isLoading={false}
        isError={false}
      />,
    );
    expect(screen.getByText('Complete')).toHaveAttribute('data-tone', 'green');
    expect(screen.getByText('Pending')).toHaveAttribute('data-tone', 'yellow');
  });

  it('says so when there are no transactions', () => {
    render(
      <RecentTransactions coinNames={noLoadedCoins} transactions={[]} isLoading={false} isError={false} />,
    );
    expect(screen.getByText('No transactions yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("says 'Failed to fetch transactions' when they cannot be loaded", () => {
    render(
      <RecentTransactions coinNames={noLoadedCoins} transactions={undefined} isLoading={false} isError />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch transactions');
  });
});
