/**
 * Whether a payout address belongs to the chosen coin's network and carries a correct checksum, so a typo
 * or an address of another network is refused before an admin sends coins that could never come back.
 * Bitcoin: bech32/bech32m (BIP 173/350) and base58check; Dogecoin and the XRP Ledger: base58check with their
 * own version bytes and alphabet; Ethereum, USDT (ERC-20) and BNB (BNB Smart Chain): 40 hex digits with the
 * EIP-55 mixed-case checksum, or all one case, which carries none.
 */
import { keccak256, sha256 } from './hashes.ts';

export const cryptoNetworkNames = {
  BTC: 'Bitcoin',
  DOGE: 'Dogecoin',
  XRP: 'XRP Ledger',
  ETH: 'Ethereum',
  USDT: 'Ethereum (ERC-20)',
  BNB: 'BNB Smart Chain',
} as const;
export type CryptoSymbol = keyof typeof cryptoNetworkNames;

/** What checking one address found: a reason to refuse it, or what could not be checked; neither when valid. */
export interface AddressCheck {
  refusal?: string;
  unchecked?: string;
}

export const ADDRESS_CHECKSUM_MESSAGE = 'Wallet address checksum does not match: check it for a typo';
export const BURN_ADDRESS_MESSAGE = 'Wallet address is a burn address: anything sent there is lost';
export const UNCHECKSUMMED_EVM_ADDRESS_MESSAGE =
  'Wallet address is all one case, so it carries no checksum: confirm it with the person';

function notOnNetwork(symbol: CryptoSymbol): AddressCheck {
  return { refusal: `Wallet address is not an address on the ${cryptoNetworkNames[symbol]} network` };
}

const bech32Alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const bech32Constant = 1;
const bech32mConstant = 0x2bc830a3;

function bech32Polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = (((checksum & 0x1ffffff) << 5) ^ value) >>> 0;
    generators.forEach((generator, bit) => {
      if ((top >>> bit) & 1) checksum = (checksum ^ generator) >>> 0;
    });
  }
  return checksum;
}

/** Regroups 5-bit words into bytes; undefined when the padding is not all zeros or longer than 4 bits. */
function fiveBitWordsToBytes(words: number[]): number[] | undefined {
  let accumulator = 0;
  let bits = 0;
  const bytes: number[] = [];
  for (const word of words) {
    accumulator = ((accumulator << 5) | word) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((accumulator >>> bits) & 0xff);
    }
  }
  if (bits >= 5 || (accumulator << (8 - bits)) & 0xff) return undefined;
  return bytes;
}

/** A segwit address on Bitcoin's main network (`bc1…`): 'format', 'checksum' or 'valid'. */
function checkSegwitAddress(address: string): 'format' | 'checksum' | 'valid' {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return 'format';
  const lower = address.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (lower.length > 90 || lower.slice(0, separator) !== 'bc' || lower.length - separator < 7)
    return 'format';
  const words = [...lower.slice(separator + 1)].map((character) => bech32Alphabet.indexOf(character));
  if (words.includes(-1)) return 'format';
  const version = words[0];
  const program = fiveBitWordsToBytes(words.slice(1, -6));
  if (version === undefined || version > 16 || !program || program.length < 2 || program.length > 40)
    return 'format';
  if (version === 0 && program.length !== 20 && program.length !== 32) return 'format';
  const expandedPrefix = [...'bc']
    .map((c) => c.charCodeAt(0) >> 5)
    .concat(
      0,
      [...'bc'].map((c) => c.charCodeAt(0) & 31),
    );
  // Version 0 uses bech32; later versions bech32m, whose other constant fixes bech32's length weakness.
  const expected = version === 0 ? bech32Constant : bech32mConstant;
  return bech32Polymod([...expandedPrefix, ...words]) === expected ? 'valid' : 'checksum';
}

const bitcoinAlphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const rippleAlphabet = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';

function base58Decode(text: string, alphabet: string): Uint8Array | undefined {
  let value = 0n;
  for (const character of text) {
    const digit = alphabet.indexOf(character);
    if (digit === -1) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn));
  const leadingZeros = text.length - text.replace(new RegExp(`^${alphabet[0]}+`), '').length;
  return Uint8Array.from([...new Array<number>(leadingZeros).fill(0), ...bytes]);
}

/**
 * A base58check address of 1 version byte and a 20-byte hash: 'format' (wrong alphabet, length or version),
 * 'checksum', 'null' (the all-zero hash, which nobody holds a key for) or 'valid'.
 */
function checkBase58Address(
  address: string,
  alphabet: string,
  versions: number[],
): 'format' | 'checksum' | 'null' | 'valid' {
  const decoded = base58Decode(address, alphabet);
  if (!decoded || decoded.length !== 25 || !versions.includes(decoded[0] ?? -1)) return 'format';
  const payload = decoded.subarray(0, 21);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  if (checksum.some((byte, index) => byte !== decoded[21 + index])) return 'checksum';
  return payload.subarray(1).every((byte) => byte === 0) ? 'null' : 'valid';
}

/** Addresses whose keys nobody holds, used to destroy tokens: the null address and the usual "dead" ones. */
const evmBurnAddresses = new Set([
  '0x0000000000000000000000000000000000000000',
  '0x000000000000000000000000000000000000dead',
  '0xdead000000000000000042069420694206942069',
]);

/** EIP-55: each letter is upper case exactly when the matching nibble of keccak256(lower-case hex) is ≥ 8. */
export function eip55Checksummed(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak256(new TextEncoder().encode(hex));
  const characters = [...hex].map((character, index) => {
    const nibble = ((hash[index >> 1] ?? 0) >> (index % 2 === 0 ? 4 : 0)) & 0x0f;
    return nibble >= 8 ? character.toUpperCase() : character;
  });
  return `0x${characters.join('')}`;
}

function checkEvmAddress(symbol: CryptoSymbol, address: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return notOnNetwork(symbol);
  if (evmBurnAddresses.has(address.toLowerCase())) return { refusal: BURN_ADDRESS_MESSAGE };
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) {
    return { unchecked: UNCHECKSUMMED_EVM_ADDRESS_MESSAGE };
  }
  return eip55Checksummed(address) === address ? {} : { refusal: ADDRESS_CHECKSUM_MESSAGE };
}

function fromBase58Result(
  symbol: CryptoSymbol,
  result: 'format' | 'checksum' | 'null' | 'valid',
): AddressCheck {
  if (result === 'format') return notOnNetwork(symbol);
  if (result === 'checksum') return { refusal: ADDRESS_CHECKSUM_MESSAGE };
  if (result === 'null') return { refusal: BURN_ADDRESS_MESSAGE };
  return {};
}

/** Checks `address` (already trimmed) against the network `symbol` is paid out on. */
export function checkCryptoAddress(symbol: CryptoSymbol, address: string): AddressCheck {
  switch (symbol) {
    case 'BTC': {
      if (/^bc1/i.test(address)) {
        const result = checkSegwitAddress(address);
        return result === 'valid'
          ? {}
          : result === 'checksum'
            ? { refusal: ADDRESS_CHECKSUM_MESSAGE }
            : notOnNetwork(symbol);
      }
      // Version 0x00: pay to a key hash (`1…`); 0x05: pay to a script hash (`3…`).
      return fromBase58Result(symbol, checkBase58Address(address, bitcoinAlphabet, [0x00, 0x05]));
    }
    case 'DOGE':
      // Version 0x1e: key hash (`D…`); 0x16: script hash (`9…` or `A…`).
      return fromBase58Result(symbol, checkBase58Address(address, bitcoinAlphabet, [0x1e, 0x16]));
    case 'XRP':
      // Classic addresses (`r…`): version 0x00 in the XRP Ledger's own alphabet.
      return fromBase58Result(symbol, checkBase58Address(address, rippleAlphabet, [0x00]));
    case 'ETH':
    case 'USDT':
    case 'BNB':
      return checkEvmAddress(symbol, address);
  }
}
