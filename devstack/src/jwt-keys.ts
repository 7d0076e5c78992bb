import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createLocalJWKSet, importJWK, SignJWT, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/** The asymmetric algorithms the stack signs with (GoTrue's conf/jwk.go also knows RS512, ES512, EdDSA). */
const signingAlgorithms = ['RS256', 'ES256'];

/**
 * The project's JWT keys as the Supabase CLI hands them to each service: the legacy HS256 secret, and the
 * asymmetric keys of `[auth] signing_keys_path` (`supabase gen signing-key`) when there are any.
 */
export interface JwtKeys {
  /** Signs as GoTrue does: with the signing key (its `alg` and `kid`) when there is one, else HS256. */
  sign(claims: JWTPayload, expiresAt: number): Promise<string>;
  /**
   * PostgREST, Realtime and the functions gateway verify against the project's JWKS (CLI `ResolveJWKS`):
   * the signing keys' public halves, or the secret alone when there are none.
   */
  services: { key: JWTVerifyGetKey; algorithms: string[] };
  /** GoTrue (`parseJWTClaims`): a token's `kid` names a signing key; HS256 without one uses the secret. */
  auth: { key: JWTVerifyGetKey; algorithms: string[] };
  /** `GET /auth/v1/.well-known/jwks.json`: the public halves only, never the secret (GoTrue `jwks.go`). */
  publicJwks: { keys: JWK[] };
  /** Whether tokens are signed with an asymmetric key. */
  asymmetric: boolean;
}

/** A key file the stack cannot use, named as the CLI and GoTrue name the fault. */
export class SigningKeysError extends Error {}

/** The public half of a private JWK, marked for verification only (GoTrue `decodePublicKey`). */
function publicHalf({ kty, kid, alg, n, e, crv, x, y }: JWK): JWK {
  const material = kty === 'RSA' ? { n, e } : { crv, x, y };
  return { kty, kid, alg, ...material, use: 'sig', key_ops: ['verify'] };
}

/** `[auth] signing_keys_path`, relative to the `supabase/` folder as the CLI resolves it. */
export async function loadSigningKeys(supabaseDir: string, signingKeysPath: string): Promise<JWK[]> {
  const file = path.resolve(supabaseDir, signingKeysPath);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SigningKeysError(`failed to read signing keys: ${(error as Error).message}`);
  }
  let keys: unknown;
  try {
    keys = JSON.parse(text);
  } catch (error) {
    throw new SigningKeysError(`failed to decode signing keys: ${(error as Error).message}`);
  }
  if (!Array.isArray(keys)) throw new SigningKeysError('failed to decode signing keys: not a JSON array');
  return keys as JWK[];
}

export async function createJwtKeys({
  secret,
  signingKeys = [],
}: {
  secret: string;
  signingKeys?: readonly JWK[];
}): Promise<JwtKeys> {
  const secretKey = new TextEncoder().encode(secret);
  const signers = signingKeys.filter((key) => key.key_ops?.includes('sign'));
  if (signingKeys.length > 0 && signers.length === 0) throw new SigningKeysError('no signing key detected');
  if (signers.length > 1)
    throw new SigningKeysError('multiple signing keys detected, only 1 signing key is supported');
  for (const key of signingKeys) {
    if (!key.alg || !signingAlgorithms.includes(key.alg) || !key.kid)
      throw new SigningKeysError(
        `signing key ${key.kid ?? '(no kid)'}: the local stack supports ${signingAlgorithms.join(' and ')} keys with a kid, not ${key.alg ?? 'a key without alg'}`,
      );
  }
  const signer = signers[0];
  // WebCrypto imports a private key for signing only (its file lists verify too, as GoTrue's do).
  const signingKey = signer ? await importJWK({ ...signer, key_ops: ['sign'] }, signer.alg) : secretKey;
  const publicJwks = { keys: signingKeys.map(publicHalf) };
  const jwks = createLocalJWKSet(publicJwks);
  const asymmetricAlgorithms = [...new Set(signingKeys.map((key) => key.alg as string))];
  const secretOnly: JWTVerifyGetKey = () => secretKey;

  return {
    async sign(claims, expiresAt) {
      const header = signer
        ? { alg: signer.alg as string, kid: signer.kid, typ: 'JWT' }
        : { alg: 'HS256', typ: 'JWT' };
      return new SignJWT(claims)
        .setProtectedHeader(header)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(signingKey);
    },
    services: signer
      ? { key: jwks, algorithms: asymmetricAlgorithms }
      : { key: secretOnly, algorithms: ['HS256'] },
    auth: {
      async key(header, token) {
        if (signer && header.kid) {
          try {
            return await jwks(header, token);
          } catch (error) {
            // An unknown kid falls back to the secret for HS256 only, as GoTrue does.
            if (header.alg !== 'HS256') throw error;
          }
        }
        return secretKey;
      },
      algorithms: ['HS256', ...asymmetricAlgorithms],
    },
    publicJwks,
    asymmetric: signer !== undefined,
  };
}

/**
 * The `anon` and `service_role` keys: the CLI signs them with the signing key (ten years, `supabase-demo`)
 * when there is one (`apikeys.go generateJWT`); without one they are the fixed HS256 keys `supabase start` prints.
 */
export async function projectApiKeys(
  keys: JwtKeys,
  legacy: { anonKey: string; serviceRoleKey: string },
): Promise<{ anonKey: string; serviceRoleKey: string }> {
  if (!keys.asymmetric) return legacy;
  const tenYears = Math.floor(Date.now() / 1000) + 10 * 365 * 24 * 3600;
  const [anonKey, serviceRoleKey] = await Promise.all(
    ['anon', 'service_role'].map((role) => keys.sign({ iss: 'supabase-demo', role }, tenYears)),
  );
  return { anonKey: anonKey as string, serviceRoleKey: serviceRoleKey as string };
}
