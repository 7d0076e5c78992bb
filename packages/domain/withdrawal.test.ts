import { describe, expect, it } from 'vitest';
import { payoutDetailsWarnings, withdrawalRequest } from './withdrawal.ts';

const bank = {
  accountNumber: 'DE89 3704 0044 0532 0130 00',
  accountName: 'Ada Lovelace',
  bankName: 'Deutsche Bank',
  bankAddress: 'Taunusanlage 12, Frankfurt',
  routingNumber: '011000015',
  swiftCode: 'DEUTDEFF500',
};

function refusals(withdrawMethod: string, details: Record<string, string>): Record<string, string> {
  const parsed = withdrawalRequest.safeParse({ amount: 10, withdrawMethod, details });
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('payout details are validated', () => {
  it('keeps valid bank details, compacted the way they are paid to', () => {
    const parsed = withdrawalRequest.parse({ amount: 10, withdrawMethod: 'bank', details: bank });
    expect(parsed.details).toMatchObject({
      accountNumber: 'DE89370400440532013000',
      swiftCode: 'DEUTDEFF500',
    });
  });

  it('refuses the bank details the issue found accepted, each with its reason', () => {
    expect(
      refusals('bank', {
        ...bank,
        accountNumber: 'hello world!!',
        routingNumber: 'ABCDEFG',
        swiftCode: 'XX',
      }),
    ).toEqual({
      'details.accountNumber': 'Account number must be an IBAN or 6 to 17 digits',
      'details.routingNumber': 'Routing number must be 9 digits',
      'details.swiftCode': 'SWIFT code must be 8 or 11 characters',
    });
    expect(refusals('bank', { ...bank, accountNumber: '1' })).toEqual({
      'details.accountNumber': 'Account number must be an IBAN or 6 to 17 digits',
    });
  });

  it("still says only 'X is required' for a blank bank number", () => {
    expect(refusals('bank', { ...bank, accountNumber: ' ', routingNumber: '', swiftCode: '' })).toEqual({
      'details.accountNumber': 'Account number is required',
      'details.routingNumber': 'Routing number is required',
      'details.swiftCode': 'SWIFT code is required',
    });
  });

  it('refuses a BTC withdrawal to the Ethereum null address, and any address of another network', () => {
    expect(refusals('wallet', { cryptoType: 'BTC', walletAddress: `0x${'0'.repeat(40)}` })).toEqual({
      'details.walletAddress': 'Wallet address is not an address on the Bitcoin network',
    });
    expect(refusals('wallet', { cryptoType: 'ETH', walletAddress: `0x${'0'.repeat(40)}` })).toEqual({
      'details.walletAddress': 'Wallet address is a burn address: anything sent there is lost',
    });
    expect(
      refusals('wallet', { cryptoType: 'BTC', walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }),
    ).toEqual({});
    expect(refusals('wallet', { cryptoType: 'BTC', walletAddress: 'bc1q' })).toEqual({
      'details.walletAddress': 'Please enter a valid wallet address',
    });
  });

  it('warns an admin about stored details the rules refuse now or could not check', () => {
    expect(payoutDetailsWarnings('bank', { ...bank, accountNumber: 'hello world!!' })).toEqual([
      'Account number must be an IBAN or 6 to 17 digits',
    ]);
    expect(payoutDetailsWarnings('bank', { ...bank, accountNumber: '000123456789' })).toEqual([
      'Account number is a domestic number without check digits: confirm it with the person',
    ]);
    expect(payoutDetailsWarnings('bank', bank)).toEqual([]);
    expect(
      payoutDetailsWarnings('wallet', {
        cryptoType: 'ETH',
        walletAddress: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      }),
    ).toEqual(['Wallet address is all one case, so it carries no checksum: confirm it with the person']);
    expect(
      payoutDetailsWarnings('wallet', { cryptoType: 'BTC', walletAddress: `0x${'0'.repeat(40)}` }),
    ).toEqual(['Wallet address is not an address on the Bitcoin network']);
    expect(
      payoutDetailsWarnings('card', { cardNumber: '4111111111111111', expirationDate: '12/30' }),
    ).toEqual([]);
  });
});
