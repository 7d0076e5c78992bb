// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast, Toaster } from 'sonner';
import type { BuyOrder } from '../types';
import { BuyForm, type BuyFormProps } from './buy-form';

const coins = [
  { id: 'bitcoin', name: 'Bitcoin', symbol: 'btc', current_price: 30000 },
  { id: 'ethereum', name: 'Ethereum', symbol: 'eth', current_price: 2000 },
];
const limits = { minAmount: 10, maxAmount: 10000 };
/** The lifetime an order carries unless the person picks another. */
const aDay = { hours: 24, label: '24 hours' };

function renderForm(props: Partial<BuyFormProps> = {}) {
  const orders: BuyOrder[] = [];
  const onSubmit =
    props.onSubmit ??
    (async (order: BuyOrder) => {
      orders.push(order);
      return { result: order, recoveredLostAnswer: false };
    });
  render(
    <>
      <BuyForm coins={coins} limits={limits} isSignedIn {...props} onSubmit={onSubmit} />
      <Toaster />
    </>,
  );
  const user = userEvent.setup();
  return {
    user,
    orders,
    coinField: screen.getByLabelText('Cryptocurrency'),
    amountField: screen.getByLabelText('Amount (USD)'),
    submit: () => user.click(screen.getByRole('button', { name: 'Submit Buy Request' })),
  };
}

describe('buy form', () => {
  // Sonner keeps its toasts in a module-wide store; each test starts with none.
  afterEach(() => {
    toast.dismiss();
  });

  it('offers the loaded coins, chosen by id', async () => {
    const { user, coinField } = renderForm();
    expect(screen.getByRole('option', { name: /Bitcoin \(BTC\)/ })).toHaveValue('bitcoin');
    await user.selectOptions(coinField, 'ethereum');
    expect(coinField).toHaveValue('ethereum');
  });

  it('asks for a cryptocurrency and an amount when both are missing', async () => {
    const { submit, orders } = renderForm();
    await submit();
    expect(await screen.findByText('Please select a cryptocurrency')).toBeInTheDocument();
    expect(screen.getByText('Amount is required')).toBeInTheDocument();
    expect(orders).toEqual([]);
  });

  it('takes amounts in steps of a cent', () => {
    const { amountField } = renderForm();
    expect(amountField).toHaveAttribute('type', 'number');
    expect(amountField).toHaveAttribute('step', '0.01');
  });

  it('shows an error once: an amount under the minimum is refused in the field, with no toast', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm();
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '9.99');
    await submit();
    expect(await screen.findByText('Minimum amount is $10')).toBeInTheDocument();
    expect(orders).toEqual([]);
    // Witness: the toast of a later submission arrives, and none from the refused one is beside it.
    await user.clear(amountField);
    await user.type(amountField, '10');
    await submit();
    expect(await screen.findByText('Buy request submitted successfully')).toBeInTheDocument();
    expect(screen.queryByText(/Minimum/)).not.toBeInTheDocument();
  });

  it('refuses an amount over the maximum with the limit written with thousands separators', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm({
      limits: { minAmount: 1500, maxAmount: 25000 },
    });
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '25000.01');
    await submit();
    expect(await screen.findByText('Maximum amount is $25,000')).toBeInTheDocument();
    await user.clear(amountField);
    await user.type(amountField, '1000');
    expect(await screen.findByText('Minimum amount is $1,500')).toBeInTheDocument();
    expect(orders).toEqual([]);
  });

  it('accepts the limits themselves', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm();
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '10');
    await submit();
    await user.selectOptions(coinField, 'ethereum');
    await user.type(amountField, '10000');
    await submit();
    await waitFor(() =>
      expect(orders).toEqual([
        { cryptocurrency: 'bitcoin', amount: 10, limitPrice: 30600, lifetime: aDay },
        { cryptocurrency: 'ethereum', amount: 10000, limitPrice: 2040, lifetime: aDay },
      ]),
    );
  });

  it('estimates the coins bought: the amount divided by the price, with 8 decimals', async () => {
    const { user, coinField, amountField } = renderForm();
    const estimate = screen.getByTestId('buy-estimate');
    expect(estimate).toHaveTextContent('—');
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '100');
    expect(estimate).toHaveTextContent('0.00333333 BTC');
    await user.selectOptions(coinField, 'ethereum');
    expect(estimate).toHaveTextContent('0.05000000 ETH');
  });

  it('sends the order, confirms it and clears the form', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm();
    await user.selectOptions(coinField, 'ethereum');
    await user.type(amountField, '250.50');
    await submit();
    expect(await screen.findByText('Buy request submitted successfully')).toBeInTheDocument();
    expect(orders).toEqual([{ cryptocurrency: 'ethereum', amount: 250.5, limitPrice: 2040, lifetime: aDay }]);
    expect(coinField).toHaveValue('');
    expect(amountField).toHaveValue(null);
  });

  it('protects the price: the request carries the price shown plus the tolerance picked, 2% unless changed', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm();
    const limit = screen.getByTestId('limit-price');
    expect(limit).toHaveTextContent('The limit price is set from the price shown when you submit.');
    await user.selectOptions(coinField, 'bitcoin');
    expect(limit).toHaveTextContent(
      'Limit price: $30,600.00 per coin. If the price is above it when an admin approves',
    );
    await user.selectOptions(
      screen.getByLabelText('Price protection'),
      'Fill only within 5% above the price shown',
    );
    expect(limit).toHaveTextContent('Limit price: $31,500.00 per coin.');
    await user.type(amountField, '100');
    await submit();
    await waitFor(() =>
      expect(orders).toEqual([{ cryptocurrency: 'bitcoin', amount: 100, limitPrice: 31500, lifetime: aDay }]),
    );
  });

  it('lets the request wait 24 hours unless the person picks 3 or 7 days, and says so beside the limit', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm();
    const lifetime = screen.getByLabelText('Expires after');
    expect(lifetime).toHaveDisplayValue('24 hours');
    await user.selectOptions(coinField, 'bitcoin');
    await user.selectOptions(lifetime, '7 days');
    expect(screen.getByTestId('limit-price')).toHaveTextContent(
      'or the request is 7 days old, it is not filled.',
    );
    await user.type(amountField, '100');
    await submit();
    await waitFor(() => expect(orders).toHaveLength(1));
    expect(orders[0]?.lifetime).toEqual({ hours: 7 * 24, label: '7 days' });
  });

  it('tells the person when the request failed and keeps what they typed', async () => {
    const { user, coinField, amountField, submit } = renderForm({
      onSubmit: () => Promise.reject(new Error('Failed to submit buy request. Please try again.')),
    });
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '50');
    await submit();
    expect(await screen.findByText('Failed to submit buy request. Please try again.')).toBeInTheDocument();
    expect(amountField).toHaveValue(50);
  });

  it('refuses to buy once the session is gone', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm({ isSignedIn: false });
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '50');
    await submit();
    expect(await screen.findByText('You must be logged in to make a purchase')).toBeInTheDocument();
    expect(orders).toEqual([]);
  });

  it('leaves the limits to the server while they are unknown (0 to 0)', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm({
      limits: { minAmount: 0, maxAmount: 0 },
    });
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '5');
    await submit();
    await waitFor(() =>
      expect(orders).toEqual([{ cryptocurrency: 'bitcoin', amount: 5, limitPrice: 30600, lifetime: aDay }]),
    );
  });

  it('refuses a buy the available balance does not cover before sending it (a buy reserves its USD)', async () => {
    const { user, coinField, amountField, submit, orders } = renderForm({ available: 79 });
    await user.selectOptions(coinField, 'bitcoin');
    await user.type(amountField, '95');
    await submit();
    expect(
      await screen.findByText('Insufficient balance (including all pending requests)'),
    ).toBeInTheDocument();
    expect(orders).toEqual([]);
    await user.clear(amountField);
    await user.type(amountField, '79');
    await submit();
    await waitFor(() => expect(orders).toHaveLength(1));
  });
});
