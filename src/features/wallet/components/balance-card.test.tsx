// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WalletBalance } from '@/lib/wallet-balance';
import { BalanceCard, HIDDEN_BALANCE } from './balance-card';

/** The card once the balance has loaded. */
function renderLoaded(balance: WalletBalance) {
  render(<BalanceCard balance={{ data: balance, isPending: false, error: null }} />);
}

describe('Balance card', () => {
  it('tells a newcomer with a 0 balance that an admin makes deposits, and whom to ask', () => {
    renderLoaded({ balance: 0, reserved: 0, available: 0 });
    const help = screen.getByTestId('add-funds-help');
    expect(help).toHaveTextContent(
      'To add funds, ask support: deposits are made by an admin. E-mail support@coinvault.example from the address you signed up with, saying the amount.',
    );
    expect(screen.getByRole('link', { name: 'support@coinvault.example' })).toHaveAttribute(
      'href',
      'mailto:support@coinvault.example',
    );
  });

  it('says nothing about adding funds once there is a balance', () => {
    renderLoaded({ balance: 20, reserved: 0, available: 20 });
    expect(screen.queryByTestId('add-funds-help')).not.toBeInTheDocument();
  });

  it('shows the available balance in dollars with 2 decimals and thousands separators', () => {
    renderLoaded({ balance: 5000, reserved: 0, available: 5000 });
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('$5,000.00');
  });

  it('rounds to the cent', () => {
    renderLoaded({ balance: 1234.5, reserved: 0, available: 1234.5 });
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('$1,234.50');
  });

  it('hides the amount behind dots and shows it again', async () => {
    const user = userEvent.setup();
    renderLoaded({ balance: 5000, reserved: 0, available: 5000 });

    await user.click(screen.getByRole('button', { name: 'Hide balance' }));
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent(HIDDEN_BALANCE);
    expect(screen.getByTestId('wallet-balance')).not.toHaveTextContent('5,000');
    expect(HIDDEN_BALANCE).toMatch(/^•+$/);

    await user.click(screen.getByRole('button', { name: 'Show balance' }));
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('$5,000.00');
  });

  it('shows what is available after open withdraw requests, and how much they hold', () => {
    renderLoaded({ balance: 5000, reserved: 1200, available: 3800 });
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('$3,800.00');
    expect(screen.getByText('$1,200.00 held for open withdraw requests')).toBeInTheDocument();
  });

  it("says 'Failed to fetch user data' when the balance cannot be loaded", () => {
    render(<BalanceCard balance={{ data: undefined, isPending: false, error: new Error('offline') }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch user data');
    expect(screen.queryByTestId('wallet-balance')).not.toBeInTheDocument();
  });
});
