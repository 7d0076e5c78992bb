// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { RecentWithdrawRequestsTable } from './recent-withdraw-requests-table';

describe('recent withdraw requests', () => {
  it('says so when there are none', () => {
    render(<RecentWithdrawRequestsTable requests={[]} />);
    expect(screen.getByText('No recent withdraw requests.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lists date, amount, method and status with the request colours', () => {
    render(
      <RecentWithdrawRequestsTable
        requests={[
          {
            id: '1',
            amount: 1250.5,
            withdrawMethod: 'card',
            status: 'pending',
            date: '2026-11-20T10:00:00Z',
            rejectionReason: null,
          },
          {
            id: '2',
            amount: 40,
            withdrawMethod: 'wallet',
            status: 'processing',
            date: '2026-11-19T10:00:00Z',
            rejectionReason: null,
          },
        ]}
      />,
    );
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Date',
      'Amount',
      'Method',
      'Status',
      'Actions',
    ]);
    const rows = screen.getAllByTestId('withdraw-request-row');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByText('$1,250.50')).toBeInTheDocument();
    expect(within(first).getByText('Card')).toBeInTheDocument();
    expect(within(first).getByText('Pending')).toHaveAttribute('data-tone', 'yellow');
    expect(within(second).getByText('Crypto wallet')).toBeInTheDocument();
    expect(within(second).getByText('Processing')).toHaveAttribute('data-tone', 'blue');
  });

  it('says why a rejected withdrawal was rejected', () => {
    render(
      <RecentWithdrawRequestsTable
        requests={[
          {
            id: '3',
            amount: 80,
            withdrawMethod: 'bank',
            status: 'rejected',
            date: '2026-11-20T10:00:00Z',
            rejectionReason: 'The account holder name does not match',
          },
        ]}
      />,
    );
    expect(screen.getByTestId('withdraw-request-row')).toHaveTextContent(
      'RejectedReason: The account holder name does not match',
    );
  });
});
