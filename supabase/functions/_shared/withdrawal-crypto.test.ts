// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  decryptWithdrawalDetails,
  encryptWithdrawalDetails,
  importMasterKey,
  WithdrawalDecryptionError,
} from './withdrawal-crypto.ts';

const card = { cardNumber: '4111111111111111', expirationDate: '12/30', cvv: '123', pin: '2468' };

function randomSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
}

/** Replaces one character of one part with another valid character of the same encoding. */
function tamper(stored: string, partIndex: number): string {
  const parts = stored.split('.');
  const part = parts[partIndex] ?? '';
  const first = part[0] === 'A' || part[0] === '0' ? '1' : partIndex === 0 ? '0' : 'A';
  parts[partIndex] = first + part.slice(1);
  return parts.join('.');
}

describe('withdrawal details encryption', () => {
  it('stores three parts, none of which contains a field in plain text', async () => {
    const stored = await encryptWithdrawalDetails(card, await importMasterKey(randomSecret()));
    expect(stored.split('.')).toHaveLength(3);
    for (const value of Object.values(card)) expect(stored).not.toContain(value);
  });

  it('gives the fields back with the master key', async () => {
    const masterKey = await importMasterKey(randomSecret());
    const stored = await encryptWithdrawalDetails(card, masterKey);
    await expect(decryptWithdrawalDetails(stored, masterKey)).resolves.toEqual(card);
  });

  it('encrypts the same details differently each time (fresh IV and data key)', async () => {
    const masterKey = await importMasterKey(randomSecret());
    const first = await encryptWithdrawalDetails(card, masterKey);
    const second = await encryptWithdrawalDetails(card, masterKey);
    expect(first.split('.')[0]).not.toBe(second.split('.')[0]);
    expect(first.split('.')[2]).not.toBe(second.split('.')[2]);
  });

  it.each([
    ['IV', 0],
    ['ciphertext', 1],
    ['wrapped key', 2],
  ])('refuses a changed %s', async (_part, index) => {
    const masterKey = await importMasterKey(randomSecret());
    const stored = await encryptWithdrawalDetails(card, masterKey);
    await expect(decryptWithdrawalDetails(tamper(stored, index), masterKey)).rejects.toThrow(
      WithdrawalDecryptionError,
    );
  });

  it('cannot be decrypted under another master key', async () => {
    const stored = await encryptWithdrawalDetails(card, await importMasterKey(randomSecret()));
    await expect(decryptWithdrawalDetails(stored, await importMasterKey(randomSecret()))).rejects.toThrow(
      'Unable to decrypt data',
    );
  });

  it('refuses a value that is not three parts', async () => {
    const masterKey = await importMasterKey(randomSecret());
    await expect(decryptWithdrawalDetails('abc.def', masterKey)).rejects.toThrow(WithdrawalDecryptionError);
  });

  it('accepts a base64 master key and refuses one of the wrong size', async () => {
    const base64Secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    await expect(importMasterKey(base64Secret)).resolves.toBeDefined();
    await expect(importMasterKey('c2hvcnQ=')).rejects.toThrow('WITHDRAWAL_MASTER_KEY must be 32 bytes');
  });
});
