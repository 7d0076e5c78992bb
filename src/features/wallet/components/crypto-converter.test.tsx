// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sampleMarketCoins } from '@/lib/market';
import { CryptoConverter } from './crypto-converter';

function renderConverter() {
  const user = userEvent.setup();
  render(<CryptoConverter coins={sampleMarketCoins} />);
  const convertButton = screen.getByRole('button', { name: 'Convert' });
  const fillIn = async () => {
    await user.selectOptions(screen.getByLabelText('From'), 'bitcoin');
    await user.selectOptions(screen.getByLabelText('To'), 'ethereum');
    await user.type(screen.getByLabelText('Amount'), '2');
  };
  return { user, convertButton, fillIn };
}

describe('Crypto Converter', () => {
  it('shows its title and the note about rates', () => {
    renderConverter();
    expect(screen.getByText('Crypto Converter')).toBeInTheDocument();
    expect(screen.getByText('Real-time rates • Updated every minute')).toBeInTheDocument();
  });

  it('offers the six currencies with their symbols, US dollars first', () => {
    renderConverter();
    const currency = screen.getByLabelText<HTMLSelectElement>('Currency');
    expect([...currency.options].map((option) => option.textContent)).toEqual([
      'USD $',
      'EUR €',
      'GBP £',
      'JPY ¥',
      'AUD A$',
      'CAD C$',
    ]);
    expect(currency).toHaveValue('USD');
  });

  it('keeps Convert disabled until from-coin, to-coin and amount are all set', async () => {
    const { user, convertButton } = renderConverter();
    expect(convertButton).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('From'), 'bitcoin');
    expect(convertButton).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('To'), 'ethereum');
    expect(convertButton).toBeDisabled();
    await user.type(screen.getByLabelText('Amount'), '2');
    expect(convertButton).toBeEnabled();
    await user.clear(screen.getByLabelText('Amount'));
    expect(convertButton).toBeDisabled();
  });

  it('shows the result with 8 decimals and the coin it is counted in', async () => {
    const { user, convertButton, fillIn } = renderConverter();
    await fillIn();
    await user.click(convertButton);
    // 2 BTC × 30,000 ÷ 2,000 with the sample prices.
    expect(screen.getByRole('status', { name: 'Conversion result' })).toHaveTextContent('30.00000000 ETH');
  });

  it('the currency changes what the value is shown in, never the coin quantity', async () => {
    const { user, convertButton, fillIn } = renderConverter();
    await fillIn();
    await user.click(convertButton);
    expect(screen.getByRole('status', { name: 'Conversion result' })).toHaveTextContent('30.00000000 ETH');
    expect(screen.getByTestId('conversion-value')).toHaveTextContent('$60,000.00');
    await user.selectOptions(screen.getByLabelText('Currency'), 'GBP');
    await user.click(convertButton);
    // 2 BTC × 30,000 = 60,000 USD = 48,000 GBP at 1.25; the ETH quantity stays the same.
    expect(screen.getByRole('status', { name: 'Conversion result' })).toHaveTextContent('30.00000000 ETH');
    expect(screen.getByTestId('conversion-value')).toHaveTextContent('£48,000.00');
    expect(screen.getByText(/1 GBP = 1\.25 USD/)).toBeInTheDocument();
  });

  it.each([
    ['the from-coin', 'From', 'ethereum'],
    ['the to-coin', 'To', 'bitcoin'],
    ['the currency', 'Currency', 'EUR'],
  ])('clears the result when %s changes', async (_, label, value) => {
    const { user, convertButton, fillIn } = renderConverter();
    await fillIn();
    await user.click(convertButton);
    expect(screen.getByRole('status', { name: 'Conversion result' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(label), value);
    expect(screen.queryByRole('status', { name: 'Conversion result' })).not.toBeInTheDocument();
  });

  it('clears the result when the amount changes', async () => {
    const { user, convertButton, fillIn } = renderConverter();
    await fillIn();
    await user.click(convertButton);
    await user.type(screen.getByLabelText('Amount'), '5');
    expect(screen.queryByRole('status', { name: 'Conversion result' })).not.toBeInTheDocument();
  });
});
