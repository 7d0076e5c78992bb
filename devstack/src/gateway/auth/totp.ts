import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords as GoTrue makes and checks them (pquerna/otp with GoTrue's options in
 * api/mfa.go): a 20-byte secret in unpadded base32, SHA-1, 6 digits, 30-second steps, one step of skew.
 */
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const periodSeconds = 30;
const digits = 6;
const skewSteps = 1;

export function newTotpSecret(): string {
  const bytes = randomBytes(20);
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let secret = '';
  for (let index = 0; index + 5 <= bits.length; index += 5) {
    secret += base32Alphabet[parseInt(bits.slice(index, index + 5), 2)];
  }
  return secret;
}

function secretBytes(secret: string): Buffer {
  let bits = '';
  for (const character of secret.replace(/=+$/, '').toUpperCase()) {
    const value = base32Alphabet.indexOf(character);
    if (value < 0) throw new Error('A TOTP secret is base32');
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8)
    bytes.push(parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** The code for the 30-second step that contains `at` (RFC 6238). */
export function totpCode(secret: string, at: Date = new Date()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(totpStep(at)));
  const mac = createHmac('sha1', secretBytes(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step (counter since the epoch) that contains `at`. */
export function totpStep(at: Date = new Date()): number {
  return Math.floor(at.getTime() / 1000 / periodSeconds);
}

/** The step whose code `code` is: this step, the one before or the one after; undefined for none. */
export function totpStepOf(secret: string, code: string, at: Date = new Date()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  for (let step = -skewSteps; step <= skewSteps; step++) {
    const expected = totpCode(secret, new Date(at.getTime() + step * periodSeconds * 1000));
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code))) return totpStep(at) + step;
  }
  return undefined;
}

/**
 * The `otpauth://` URI authenticator apps scan, as pquerna/otp writes it: the label escaped as a Go URL path
 * (`:` and `@` stay), the parameters sorted and query-escaped.
 */
export function totpUri(secret: string, issuer: string, accountName: string): string {
  const label = encodeURIComponent(`${issuer}:${accountName}`).replace(
    /%(3A|40|24|26|2B|2C|3B|3D)/g,
    (escaped) => decodeURIComponent(escaped),
  );
  const query = new URLSearchParams({
    algorithm: 'SHA1',
    digits: String(digits),
    issuer,
    period: String(periodSeconds),
    secret,
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
