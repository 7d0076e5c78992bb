// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WalletCodeCard } from './wallet-code-card';

const walletCode = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh7a9d';

describe('Wallet code card', () => {
  it('says what the wallet code is for, and that it is not a Bitcoin address', () => {
    render(<WalletCodeCard walletCode={{ data: walletCode, isPending: false, error: null }} />);
    expect(screen.queryByText('Share it to receive funds')).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'Identifies your CoinVault wallet. It is not a Bitcoin address: coins sent to it are not received.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the first 12 characters with an ellipsis until Show More', async () => {
    const user = userEvent.setup();
    render(<WalletCodeCard walletCode={{ data: walletCode, isPending: false, error: null }} />);
    expect(screen.getByTestId('wallet-code')).toHaveTextContent(/^bc1qxy2kgdyg\.\.\.$/);

    await user.click(screen.getByRole('button', { name: 'Show More' }));
    expect(screen.getByTestId('wallet-code')).toHaveTextContent(walletCode);

    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.getByTestId('wallet-code')).toHaveTextContent('bc1qxy2kgdyg...');
  });

  it('draws a QR code of size 120', async () => {
    render(<WalletCodeCard walletCode={{ data: walletCode, isPending: false, error: null }} />);
    const qr = await screen.findByRole('img', { name: 'QR code of your wallet code' });
    expect(qr).toHaveAttribute('width', '120');
    expect(qr).toHaveAttribute('height', '120');
  });

  it('copies the full code to the clipboard', async () => {
    const user = userEvent.setup();
    render(<WalletCodeCard walletCode={{ data: walletCode, isPending: false, error: null }} />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(walletCode);
  });

  it("says 'Failed to fetch user data' when the profile cannot be loaded", () => {
    render(
      <WalletCodeCard walletCode={{ data: undefined, isPending: false, error: new Error('offline') }} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch user data');
  });
});
