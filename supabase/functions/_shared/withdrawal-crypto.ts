/**
 * Withdrawal details at rest (docs/architecture.md §3). The specification's format is kept: three dot-separated
 * parts `iv.ciphertext.key`, AES-256-CBC with a random 16-byte IV and a random 32-byte data key. Unlike the
 * specification, the third part is the data key wrapped with AES-256-GCM under `WITHDRAWAL_MASTER_KEY`
 * (a secret only the functions hold). The wrap's additional data is `iv.ciphertext` and the blob's context:
 * the request id (or saved destination id), the user id, the method and the master key's version. So the database alone cannot decrypt
 * anything, a changed IV, ciphertext or wrapped key is detected instead of decrypting to garbage, and a blob
 * copied onto another request, person or method does not decrypt there.
 * WebCrypto only, so the same code runs in Deno (functions) and Node (tests).
 */

/** Raised for anything that does not decrypt: the caller shows 'Unable to decrypt data'. */
export class WithdrawalDecryptionError extends Error {
  constructor(reason: string) {
    super(`Unable to decrypt data: ${reason}`);
    this.name = 'WithdrawalDecryptionError';
  }
}

const cbcIvBytes = 16;
const dataKeyBytes = 32;
const gcmIvBytes = 12;

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function fromHex(text: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})+$/i.test(text)) throw new Error('not hex');
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

/**
 * The master key's bytes from its secret: 32 bytes written as 64 hex digits or as base64.
 * A wrong-sized secret is refused at once rather than silently weakening the wrap.
 */
function masterKeyBytes(secret: string): Uint8Array<ArrayBuffer> {
  const trimmed = secret.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? fromHex(trimmed) : fromBase64(trimmed);
  if (bytes.length !== dataKeyBytes) {
    throw new Error('WITHDRAWAL_MASTER_KEY must be 32 bytes (64 hex digits or base64)');
  }
  return bytes;
}

export async function importMasterKey(secret: string): Promise<CryptoKey> {
  return await crypto.subtle.importKey('raw', masterKeyBytes(secret), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);
}

/**
 * The version of `WITHDRAWAL_MASTER_KEY` that seals new details, stored beside each blob and bound into it.
 * Raise it together with a new key when the key is rotated (old blobs keep naming the key they need).
 */
export const withdrawalKeyVersion = 1;

/**
 * Where a blob belongs: decryption refuses it anywhere else. A request's details are bound to the request, a
 * saved payout destination's to the destination, so neither decrypts as the other.
 */
export type WithdrawalDetailsContext = ({ requestId: string } | { destinationId: string }) & {
  userId: string;
  method: string;
  keyVersion: number;
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The wrap's additional data: the sealed parts, then the context (null: details sealed before binding). */
function additionalData(sealed: string, context: WithdrawalDetailsContext | null): Uint8Array<ArrayBuffer> {
  if (!context) return encoder.encode(sealed);
  const { userId, method, keyVersion } = context;
  const owner =
    'requestId' in context ? `request=${context.requestId}` : `destination=${context.destinationId}`;
  return encoder.encode(`${sealed}|${owner}|user=${userId}|method=${method}|key=${keyVersion}`);
}

/**
 * A digest of the details that says whether a retried request carries the same ones, without letting the
 * database (which stores it with the idempotency key) guess short values like card numbers: HMAC-SHA-256
 * under a key derived from the master key.
 */
export async function withdrawalDetailsDigest(
  details: Record<string, string>,
  secret: string,
): Promise<string> {
  const base = await crypto.subtle.importKey('raw', masterKeyBytes(secret), 'HKDF', false, ['deriveKey']);
  const digestKey = await crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: encoder.encode('withdrawal-details-digest'),
    },
    base,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const fields = Object.keys(details)
    .sort()
    .map((name) => [name, details[name]]);
  return toHex(
    new Uint8Array(await crypto.subtle.sign('HMAC', digestKey, encoder.encode(JSON.stringify(fields)))),
  );
}

/** Encrypts the details for their request into `iv.ciphertext.wrappedKey` (hex, base64, base64). */
export async function encryptWithdrawalDetails(
  details: Record<string, string>,
  masterKey: CryptoKey,
  context: WithdrawalDetailsContext,
): Promise<string> {
  const iv = randomBytes(cbcIvBytes);
  const rawDataKey = randomBytes(dataKeyBytes);
  const dataKey = await crypto.subtle.importKey('raw', rawDataKey, 'AES-CBC', false, ['encrypt']);
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, dataKey, encoder.encode(JSON.stringify(details))),
  );
  const sealed = `${toHex(iv)}.${toBase64(ciphertext)}`;
  const wrapIv = randomBytes(gcmIvBytes);
  const wrappedKey = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: wrapIv, additionalData: additionalData(sealed, context) },
      masterKey,
      rawDataKey,
    ),
  );
  rawDataKey.fill(0);
  const wrapped = new Uint8Array(gcmIvBytes + wrappedKey.length);
  wrapped.set(wrapIv);
  wrapped.set(wrappedKey, gcmIvBytes);
  return `${sealed}.${toBase64(wrapped)}`;
}

/**
 * Decrypts a stored value back into its fields, where `context` is where it is stored now (null for details
 * sealed before the binding existed); throws `WithdrawalDecryptionError` on any failure, a moved blob included.
 */
export async function decryptWithdrawalDetails(
  stored: string,
  masterKey: CryptoKey,
  context: WithdrawalDetailsContext | null,
): Promise<Record<string, string>> {
  const parts = stored.split('.');
  if (parts.length !== 3) throw new WithdrawalDecryptionError('expected three parts');
  const [ivPart, ciphertextPart, wrappedPart] = parts as [string, string, string];
  let rawDataKey: Uint8Array<ArrayBuffer>;
  let iv: Uint8Array<ArrayBuffer>;
  let ciphertext: Uint8Array<ArrayBuffer>;
  try {
    iv = fromHex(ivPart);
    ciphertext = fromBase64(ciphertextPart);
    const wrapped = fromBase64(wrappedPart);
    rawDataKey = new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: wrapped.slice(0, gcmIvBytes),
          additionalData: additionalData(`${ivPart}.${ciphertextPart}`, context),
        },
        masterKey,
        wrapped.slice(gcmIvBytes),
      ),
    );
  } catch {
    throw new WithdrawalDecryptionError('the data key does not unwrap');
  }
  try {
    const dataKey = await crypto.subtle.importKey('raw', rawDataKey, 'AES-CBC', false, ['decrypt']);
    rawDataKey.fill(0);
    const plaintext = await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, dataKey, ciphertext);
    const fields: unknown = JSON.parse(decoder.decode(plaintext));
    if (
      typeof fields !== 'object' ||
      fields === null ||
      Array.isArray(fields) ||
      !Object.values(fields).every((value) => typeof value === 'string')
    ) {
      throw new Error('not a record of text fields');
    }
    return fields as Record<string, string>;
  } catch {
    throw new WithdrawalDecryptionError('the payload does not decrypt');
  }
}
