import { describe, expect, it } from 'vitest';
import {
  accountNumberProblem,
  compactBankNumber,
  routingNumberProblem,
  swiftCodeProblem,
} from './bank-details.ts';

const account = (typed: string) => accountNumberProblem(compactBankNumber(typed));

describe('bank payout numbers', () => {
  it('accepts published example IBANs, typed in groups or lower case', () => {
    for (const iban of [
      'DE89 3704 0044 0532 0130 00',
      'GB82WEST12345698765432',
      'fr14 2004 1010 0505 0001 3m02 606',
      'NL91ABNA0417164300',
      'BE68539007547034',
      'NO9386011117947',
      'CH9300762011623852957',
    ]) {
      expect(account(iban), iban).toBeUndefined();
    }
  });

  it('refuses an IBAN with a mistyped digit, the wrong length for its country or an unknown country', () => {
    expect(account('DE89370400440532013001')).toBe(
      'Account number is not a valid IBAN (check digits do not match)',
    );
    expect(account('DE8937040044053201300')).toBe('Account number: an IBAN from DE has 22 characters');
    expect(account('US12345678901234567890')).toBe('Account number: US is not a country that issues IBANs');
  });

  it('accepts a domestic account number of 6 to 17 digits and refuses anything else', () => {
    expect(account('000123456789')).toBeUndefined();
    expect(account('123456')).toBeUndefined();
    expect(account('12345678901234567')).toBeUndefined();
    for (const typed of ['hello world!!', '1', '12345', '123456789012345678', '12AB34']) {
      expect(account(typed), typed).toBe('Account number must be an IBAN or 6 to 17 digits');
    }
  });

  it('accepts ABA routing numbers whose weighted checksum holds', () => {
    expect(routingNumberProblem('011000015')).toBeUndefined();
    expect(routingNumberProblem('021000021')).toBeUndefined();
    expect(routingNumberProblem('011000016')).toBe('Routing number is not valid');
    expect(routingNumberProblem('ABCDEFG')).toBe('Routing number must be 9 digits');
    expect(routingNumberProblem('01100001')).toBe('Routing number must be 9 digits');
  });

  it('accepts SWIFT codes of 8 or 11 characters in the bank, country, location, branch structure', () => {
    expect(swiftCodeProblem('DEUTDEFF')).toBeUndefined();
    expect(swiftCodeProblem('DEUTDEFF500')).toBeUndefined();
    expect(swiftCodeProblem(compactBankNumber('deut de ff'))).toBeUndefined();
    expect(swiftCodeProblem('XX')).toBe('SWIFT code must be 8 or 11 characters');
    expect(swiftCodeProblem('DEUTDEFF5')).toBe('SWIFT code must be 8 or 11 characters');
    expect(swiftCodeProblem('1EUTDEFF')).toMatch(/^SWIFT code is not valid/);
    expect(swiftCodeProblem('DEUT12FF')).toMatch(/^SWIFT code is not valid/);
  });
});
