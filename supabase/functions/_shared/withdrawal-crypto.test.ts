import { describe, expect, it } from 'vitest';
import {
  decryptWithdrawalDetails,
  encryptWithdrawalDetails,
  importMasterKey,
  WithdrawalDecryptionError,
} from './withdrawal-crypto.ts';

const card = { cardNumber: '4111111111111111', expirationDate: '12/30' };
const context = {
  requestId: '6f1c1d3e-4a36-4d5e-9f56-0c1b2a3d4e5f',
  userId: '0b7f6c2a-1e2d-4c3b-8a9f-5d6e7f8a9b0c',
  method: 'card',
  keyVersion: 1,
};

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
    const stored = await encryptWithdrawalDetails(card, await importMasterKey(randomSecret()), context);
    expect(stored.split('.')).toHaveLength(3);
    for (const value of Object.values(card)) expect(stored).not.toContain(value);
  });

  it('gives the fields back with the master key', async () => {
    const masterKey = await importMasterKey(randomSecret());
    const stored = await encryptWithdrawalDetails(card, masterKey, context);
    await expect(decryptWithdrawalDetails(stored, masterKey, context)).resolves.toEqual(card);
  });

  it('encrypts the same details differently each time (fresh IV and data key)', async () => {
    const masterKey = await importMasterKey(randomSecret());
    const first = await encryptWithdrawalDetails(card, masterKey, context);
    const second = await encryptWithdrawalDetails(card, masterKey, context);
    expect(first.split('.')[0]).not.toBe(second.split('.')[0]);
    expect(first.split('.')[2]).not.toBe(second.split('.')[2]);
  });

  it.each([
    ['IV', 0],
    ['ciphertext', 1],
    ['wrapped key', 2],
  ])('refuses a changed %s', async (_part, index) => {
    const masterKey = await importMasterKey(randomSecret());
    const stored = await encryptWithdrawalDetails(card, masterKey, context);
    await expect(decryptWithdrawalDetails(tamper(stored, index), masterKey, context)).rejects.toThrow(
      WithdrawalDecryptionError,
    );
  });

  it('cannot be decrypted under another master key', async () => {
    const stored = await encryptWithdrawalDetails(card, await importMasterKey(randomSecret()), context);
    await expect(
      decryptWithdrawalDetails(stored, await importMasterKey(randomSecret()), context),
    ).rejects.toThrow('Unable to decrypt data');
  });

  it.each([
    ['another request', { requestId: '11111111-2222-4333-8444-555555555555' }],
    ['another person', { userId: '11111111-2222-4333-8444-555555555555' }],
    ['another method', { method: 'bank' }],
    ['another key version', { keyVersion: 2 }],
  ])('refuses details moved to %s', async (_where, moved) => {
    const masterKey = await importMasterKey(randomSecret());
    const stored = await encryptWithdrawalDetails(card, masterKey, context);
    await expect(decryptWithdrawalDetails(stored, masterKey, { ...context, ...moved })).rejects.toThrow(
      WithdrawalDecryptionError,
    );
  });

  it('reads details sealed before the binding only as such (no context), and bound ones never that way', async () => {
    const masterKey = await importMasterKey(randomSecret());
    const stored = await encryptWithdrawalDetails(card, masterKey, context);
    await expect(decryptWithdrawalDetails(stored, masterKey, null)).rejects.toThrow(
      WithdrawalDecryptionError,
    );
  });

  it('refuses a value that is not three parts', async () => {
    const masterKey = await importMasterKey(randomSecret());
    await expect(decryptWithdrawalDetails('abc.def', masterKey, context)).rejects.toThrow(
      WithdrawalDecryptionError,
    );
  });

  it('accepts a base64 master key and refuses one of the wrong size', async () => {
    const base64Secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    await expect(importMasterKey(base64Secret)).resolves.toBeDefined();
    await expect(importMasterKey('c2hvcnQ=')).rejects.toThrow('WITHDRAWAL_MASTER_KEY must be 32 bytes');
  });
});
