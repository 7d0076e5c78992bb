import { describe, expect, it } from 'vitest';
import {
  ADDRESS_CHECKSUM_MESSAGE,
  BURN_ADDRESS_MESSAGE,
  checkCryptoAddress,
  eip55Checksummed,
  UNCHECKSUMMED_EVM_ADDRESS_MESSAGE,
} from './crypto-addresses.ts';

describe('crypto payout addresses', () => {
  it('accepts Bitcoin segwit (bech32, bech32m) and legacy (base58check) addresses', () => {
    for (const address of [
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    ]) {
      expect(checkCryptoAddress('BTC', address), address).toEqual({});
    }
  });

  it('refuses a Bitcoin address with a typo, of another network or the null hash', () => {
    expect(checkCryptoAddress('BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr')).toEqual({
      refusal: ADDRESS_CHECKSUM_MESSAGE,
    });
    expect(checkCryptoAddress('BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).toEqual({
      refusal: ADDRESS_CHECKSUM_MESSAGE,
    });
    // Version 0 with a bech32m checksum: the mix BIP 350 forbids.
    expect(checkCryptoAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh').refusal).toBeDefined();
    expect(checkCryptoAddress('BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toEqual({
      refusal: 'Wallet address is not an address on the Bitcoin network',
    });
    expect(checkCryptoAddress('BTC', `0x${'0'.repeat(40)}`)).toEqual({
      refusal: 'Wallet address is not an address on the Bitcoin network',
    });
    expect(checkCryptoAddress('BTC', '1111111111111111111114oLvT2')).toEqual({
      refusal: BURN_ADDRESS_MESSAGE,
    });
  });

  it('accepts Dogecoin and XRP Ledger addresses by their own version bytes and alphabet', () => {
    expect(checkCryptoAddress('DOGE', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L')).toEqual({});
    expect(checkCryptoAddress('DOGE', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toEqual({
      refusal: 'Wallet address is not an address on the Dogecoin network',
    });
    expect(checkCryptoAddress('XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh')).toEqual({});
    expect(checkCryptoAddress('XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj')).toEqual({
      refusal: ADDRESS_CHECKSUM_MESSAGE,
    });
    expect(checkCryptoAddress('XRP', 'rrrrrrrrrrrrrrrrrrrrrhoLvTp')).toEqual({
      refusal: BURN_ADDRESS_MESSAGE,
    });
  });

  it('accepts EIP-55 checksummed Ethereum addresses for ETH and its tokens, and refuses a changed case', () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(eip55Checksummed(address.toLowerCase())).toBe(address);
      for (const symbol of ['ETH', 'USDT', 'BNB'] as const)
        expect(checkCryptoAddress(symbol, address)).toEqual({});
    }
    expect(checkCryptoAddress('ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toEqual({
      refusal: ADDRESS_CHECKSUM_MESSAGE,
    });
    expect(checkCryptoAddress('USDT', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toEqual({
      refusal: 'Wallet address is not an address on the Ethereum (ERC-20) network',
    });
  });

  it('accepts an all-lower or all-upper Ethereum address but says its checksum could not be checked', () => {
    expect(checkCryptoAddress('ETH', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toEqual({
      unchecked: UNCHECKSUMMED_EVM_ADDRESS_MESSAGE,
    });
    expect(checkCryptoAddress('ETH', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toEqual({
      unchecked: UNCHECKSUMMED_EVM_ADDRESS_MESSAGE,
    });
  });

  it('refuses the null address and well-known burn addresses on every Ethereum-style network', () => {
    for (const address of [
      `0x${'0'.repeat(40)}`,
      '0x000000000000000000000000000000000000dEaD',
      '0xdEAD000000000000000042069420694206942069',
    ]) {
      expect(checkCryptoAddress('ETH', address)).toEqual({ refusal: BURN_ADDRESS_MESSAGE });
      expect(checkCryptoAddress('BNB', address.toLowerCase())).toEqual({ refusal: BURN_ADDRESS_MESSAGE });
    }
  });
});
