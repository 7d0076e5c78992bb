// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast, Toaster } from 'sonner';
import type { WithdrawalSubmission } from '@domain/withdrawal.ts';
import { WithdrawForm, type WithdrawFormProps } from './withdraw-form';
import { WITHDRAW_SUBMITTED_MESSAGE } from '../api/withdraw-messages';

const allowance = { limits: { minAmount: 10, maxAmount: 10000 }, available: 5000 };
const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');
const validCard = {
  cardNumber: '4111 1111 1111 1111',
  expirationDate: `12/${nextYear}`,
  cvv: '123',
  pin: '2468',
};

function renderForm(props: Partial<WithdrawFormProps> = {}) {
  const sent: WithdrawalSubmission[] = [];
  const onSubmit =
    props.onSubmit ??
    (async (request: WithdrawalSubmission) => {
      sent.push(request);
      return { result: request, recoveredLostAnswer: false };
    });
  render(
    <>
      <WithdrawForm allowance={allowance} {...props} onSubmit={onSubmit} />
      <Toaster />
    </>,
  );
  const user = userEvent.setup();
  const field = (label: string | RegExp) => screen.getByLabelText(label);
  return {
    user,
    sent,
    field,
    amountField: field('Amount (USD)'),
    get methodField() {
      return field('Withdraw method');
    },
    submit: () => user.click(screen.getByRole('button', { name: 'Submit Withdraw Request' })),
    fill: async (values: Record<string, string>) => {
      for (const [label, value] of Object.entries(values)) {
        await user.clear(field(label));
        await user.type(field(label), value);
      }
    },
  };
}

async function startCardRequest(form: ReturnType<typeof renderForm>, amount = '100') {
  await form.user.type(form.amountField, amount);
  await form.user.selectOptions(form.methodField, 'card');
}

function cardLabels(card: typeof validCard): Record<string, string> {
  return {
    'Card number': card.cardNumber,
    'Expiration date (MM/YY)': card.expirationDate,
    CVV: card.cvv,
    PIN: card.pin,
  };
}

describe('withdraw form', () => {
  // Sonner keeps its toasts in a module-wide store; each test starts with none.
  afterEach(() => {
    toast.dismiss();
  });

  describe('amount and method', () => {
    it('asks for an amount and a method when both are missing', async () => {
      const { submit, sent } = renderForm();
      await submit();
      expect(await screen.findByText('Amount is required')).toBeInTheDocument();
      expect(screen.getByText('Withdraw method is required')).toBeInTheDocument();
      expect(sent).toEqual([]);
    });

    it('takes amounts in steps of a cent and refuses a third decimal', async () => {
      const form = renderForm();
      expect(form.amountField).toHaveAttribute('type', 'number');
      expect(form.amountField).toHaveAttribute('step', '0.01');
      await form.user.type(form.amountField, '12.345');
      await form.submit();
      expect(await screen.findByText('Amount can have at most 2 decimal places')).toBeInTheDocument();
    });

    it('shows an error once: an amount under the minimum is refused in the field, with no toast', async () => {
      const form = renderForm();
      await startCardRequest(form, '9.99');
      await form.fill(cardLabels(validCard));
      await form.submit();
      expect(await screen.findByText('Minimum amount is $10')).toBeInTheDocument();
      expect(form.sent).toEqual([]);
      // Witness: the toast of a later submission arrives, and none from the refused one is beside it.
      await form.user.clear(form.amountField);
      await form.user.type(form.amountField, '10');
      await form.submit();
      expect(await screen.findByText(WITHDRAW_SUBMITTED_MESSAGE)).toBeInTheDocument();
      expect(screen.queryByText(/Minimum/)).not.toBeInTheDocument();
    });

    it('caps the amount at the available balance when it is below the maximum', async () => {
      const form = renderForm({ allowance: { ...allowance, available: 1234.5 } });
      expect(form.amountField).toHaveAttribute('max', '1234.5');
      await startCardRequest(form, '1234.51');
      await form.fill(cardLabels(validCard));
      await form.submit();
      expect(await screen.findByText('Maximum amount is $1,234.5')).toBeInTheDocument();
      expect(form.sent).toEqual([]);
    });

    it('caps the amount at the maximum when the balance is larger, with thousands separators', async () => {
      const form = renderForm({
        allowance: { limits: { minAmount: 10, maxAmount: 10000 }, available: 25000 },
      });
      await startCardRequest(form, '10000.01');
      await form.fill(cardLabels(validCard));
      await form.submit();
      expect(await screen.findByText('Maximum amount is $10,000')).toBeInTheDocument();
      expect(form.sent).toEqual([]);
    });

    it('shows no method fields until a method is chosen', () => {
      renderForm();
      expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
      expect(screen.queryByLabelText('Account number')).not.toBeInTheDocument();
      expect(screen.queryByLabelText('Wallet address')).not.toBeInTheDocument();
    });
  });

  describe('bank transfer', () => {
    it('requires every bank field by name', async () => {
      const form = renderForm();
      await form.user.type(form.amountField, '100');
      await form.user.selectOptions(form.methodField, 'bank');
      await form.submit();
      for (const message of [
        'Account number is required',
        'Account name is required',
        'Bank name is required',
        'Bank address is required',
        'Routing number is required',
        'SWIFT code is required',
      ]) {
        expect(await screen.findByText(message)).toBeInTheDocument();
      }
      expect(form.sent).toEqual([]);
    });

    it('sends the bank details', async () => {
      const form = renderForm();
      await form.user.type(form.amountField, '250.50');
      await form.user.selectOptions(form.methodField, 'bank');
      await form.fill({
        'Account number': '000123456789',
        'Account name': 'Ada Lovelace',
        'Bank name': 'First Bank',
        'Bank address': '1 Main Street',
        'Routing number': '021000021',
        'SWIFT code': 'FBNKUS33',
      });
      await form.submit();
      await waitFor(() =>
        expect(form.sent).toEqual([
          {
            amount: 250.5,
            withdrawMethod: 'bank',
            details: {
              accountNumber: '000123456789',
              accountName: 'Ada Lovelace',
              bankName: 'First Bank',
              bankAddress: '1 Main Street',
              routingNumber: '021000021',
              swiftCode: 'FBNKUS33',
            },
          },
        ]),
      );
    });
  });

  describe('card', () => {
    it('the card form says why it asks for PIN and CVV: only to verify the card, never stored', async () => {
      const form = renderForm();
      await startCardRequest(form);
      const note = 'The CVV and PIN only verify your card: they are never stored, and admins never see them.';
      expect(screen.getByText(note)).toBeInTheDocument();
      expect(form.field('CVV')).toHaveAccessibleDescription(note);
      expect(form.field('PIN')).toHaveAccessibleDescription(note);
      expect(form.field('Card number')).not.toHaveAccessibleDescription(note);
    });

    it('requires the card number, expiration date, CVV and PIN', async () => {
      const form = renderForm();
      await startCardRequest(form);
      await form.submit();
      for (const message of [
        'Card number is required',
        'Expiration date is required',
        'CVV is required',
        'PIN is required',
      ]) {
        expect(await screen.findByText(message)).toBeInTheDocument();
      }
    });

    it.each([
      ['a one-digit PIN', { pin: '7' }, 'PIN must be at least 2 digits'],
      ['a PIN with letters', { pin: '12ab' }, 'PIN must contain digits only'],
      ['a card number that is too short', { cardNumber: '4111 1111' }, 'Card number must be 12 to 19 digits'],
      ['a mistyped card number', { cardNumber: '4111 1111 1111 1112' }, 'Card number is not valid'],
      ['an expiry not written MM/YY', { expirationDate: '2030-12' }, 'Expiration date must be MM/YY'],
      ['month 13', { expirationDate: `13/${nextYear}` }, 'Expiration date must be MM/YY'],
      ['an expired card', { expirationDate: '01/20' }, 'Card has expired'],
      ['a two-digit CVV', { cvv: '12' }, 'CVV must be 3 or 4 digits'],
    ])('refuses %s', async (_case, change, message) => {
      const form = renderForm();
      await startCardRequest(form);
      await form.fill(cardLabels({ ...validCard, ...change }));
      await form.submit();
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(form.sent).toEqual([]);
    });

    it('sends the card details with the number as digits only', async () => {
      const form = renderForm();
      await startCardRequest(form, '100');
      await form.fill(cardLabels(validCard));
      await form.submit();
      await waitFor(() =>
        expect(form.sent).toEqual([
          {
            amount: 100,
            withdrawMethod: 'card',
            details: {
              cardNumber: '4111111111111111',
              expirationDate: validCard.expirationDate,
              cvv: '123',
              pin: '2468',
            },
          },
        ]),
      );
    });

    it('hides the CVV and PIN as they are typed', async () => {
      const form = renderForm();
      await startCardRequest(form);
      expect(form.field('CVV')).toHaveAttribute('type', 'password');
      expect(form.field('PIN')).toHaveAttribute('type', 'password');
    });
  });

  describe('crypto wallet', () => {
    it('asks for a cryptocurrency and a wallet address', async () => {
      const form = renderForm();
      await form.user.type(form.amountField, '100');
      await form.user.selectOptions(form.methodField, 'wallet');
      await form.submit();
      expect(await screen.findByText('Please select a cryptocurrency')).toBeInTheDocument();
      expect(screen.getByText('Please enter a valid wallet address')).toBeInTheDocument();
    });

    it('offers exactly BTC, DOGE, XRP, ETH, USDT and BNB', async () => {
      const form = renderForm();
      await form.user.selectOptions(form.methodField, 'wallet');
      const options = Array.from(
        (form.field('Cryptocurrency') as HTMLSelectElement).options,
        (option) => option.value,
      ).filter(Boolean);
      expect(options).toEqual(['BTC', 'DOGE', 'XRP', 'ETH', 'USDT', 'BNB']);
    });

    it('refuses a wallet address shorter than 10 characters', async () => {
      const form = renderForm();
      await form.user.type(form.amountField, '100');
      await form.user.selectOptions(form.methodField, 'wallet');
      await form.user.selectOptions(form.field('Cryptocurrency'), 'ETH');
      await form.fill({ 'Wallet address': '0x12345' });
      await form.submit();
      expect(await screen.findByText('Please enter a valid wallet address')).toBeInTheDocument();
      expect(form.sent).toEqual([]);
    });

    it('checks the address again against the network of a newly chosen coin', async () => {
      const form = renderForm();
      await form.user.type(form.amountField, '100');
      await form.user.selectOptions(form.methodField, 'wallet');
      await form.user.selectOptions(form.field('Cryptocurrency'), 'BTC');
      await form.fill({ 'Wallet address': `0x${'0'.repeat(40)}` });
      await form.submit();
      expect(
        await screen.findByText('Wallet address is not an address on the Bitcoin network'),
      ).toBeInTheDocument();
      await form.user.selectOptions(form.field('Cryptocurrency'), 'ETH');
      expect(
        await screen.findByText('Wallet address is a burn address: anything sent there is lost'),
      ).toBeInTheDocument();
      expect(
        screen.queryByText('Wallet address is not an address on the Bitcoin network'),
      ).not.toBeInTheDocument();
      expect(form.sent).toEqual([]);
    });

    it('sends only the wallet fields after another method was filled in first', async () => {
      const form = renderForm();
      await startCardRequest(form, '75');
      await form.fill(cardLabels(validCard));
      await form.user.selectOptions(form.methodField, 'wallet');
      await form.user.selectOptions(form.field('Cryptocurrency'), 'BTC');
      await form.fill({ 'Wallet address': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
      await form.submit();
      await waitFor(() =>
        expect(form.sent).toEqual([
          {
            amount: 75,
            withdrawMethod: 'wallet',
            details: { cryptoType: 'BTC', walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
          },
        ]),
      );
    });
  });

  describe('submitting', () => {
    it('confirms the request and clears the form', async () => {
      const form = renderForm();
      await startCardRequest(form);
      await form.fill(cardLabels(validCard));
      await form.submit();
      expect(await screen.findByText('Withdraw request submitted successfully')).toBeInTheDocument();
      expect(form.amountField).toHaveValue(null);
      expect(form.methodField).toHaveValue('');
      expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    });

    it('shows why the server refused and keeps what was typed', async () => {
      const form = renderForm({
        onSubmit: () => Promise.reject(new Error('Failed to submit withdraw request')),
      });
      await startCardRequest(form);
      await form.fill(cardLabels(validCard));
      await form.submit();
      expect(await screen.findByText('Failed to submit withdraw request')).toBeInTheDocument();
      expect(form.amountField).toHaveValue(100);
      expect(form.field('Card number')).toHaveValue(validCard.cardNumber);
    });
  });
});

describe('WithdrawForm with an address book', () => {
  const salary = {
    id: '6f1c1e0e-8c1b-4f59-9d5e-3e1f6c0a1b2c',
    name: 'Salary account · Bank transfer ending in 6789',
    method: 'bank' as const,
    waitsUntil: null,
  };
  const waiting = {
    id: '0b7e2a44-6c55-4e0b-8a47-4a3c1d9e7f10',
    name: 'New card · Card ending in 1111',
    method: 'card' as const,
    waitsUntil: '2030-01-02T03:04:00Z',
  };

  it('sends the saved destination chosen by label, without typed details', async () => {
    const form = renderForm({ payTo: { saved: [salary, waiting], allowlistInForce: false } });
    await form.user.type(form.amountField, '100');
    await form.user.selectOptions(form.field('Pay to'), salary.name);
    expect(screen.queryByLabelText('Withdraw method')).not.toBeInTheDocument();
    await form.submit();
    await waitFor(() => expect(form.sent).toEqual([{ amount: 100, destinationId: salary.id }]));
  });

  it('offers a destination still waiting only as disabled, saying until when', () => {
    renderForm({ payTo: { saved: [salary, waiting], allowlistInForce: false } });
    const option = screen.getByRole('option', { name: /New card · Card ending in 1111 \(waiting until/ });
    expect(option).toBeDisabled();
  });

  it('with the allowlist on, offers no typed details at all', async () => {
    const form = renderForm({ payTo: { saved: [salary], allowlistInForce: true } });
    expect(screen.queryByLabelText('Withdraw method')).not.toBeInTheDocument();
    await form.user.type(form.amountField, '100');
    await form.submit();
    await waitFor(() => expect(form.field('Pay to')).toHaveAttribute('aria-invalid', 'true'));
    expect(form.sent).toEqual([]);
  });
});
