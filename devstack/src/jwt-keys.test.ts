import { randomUUID } from 'node:crypto';
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JWK,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtKeys, projectApiKeys } from './jwt-keys';

const secret = 'super-secret-jwt-token-with-at-least-32-characters-long';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

async function privateJwk(alg: 'RS256' | 'ES256', keyOps = ['sign', 'verify']): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg, key_ops: keyOps };
}

function hs256Token() {
  return new SignJWT({ role: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(inAnHour())
    .sign(new TextEncoder().encode(secret));
}

describe('JWT keys without signing keys', () => {
  it('sign with HS256 and the secret, and publish no key', async () => {
    const keys = await createJwtKeys({ secret });
    const token = await keys.sign({ role: 'anon' }, inAnHour());
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    await expect(jwtVerify(token, keys.services.key, keys.services)).resolves.toBeDefined();
    expect(keys.publicJwks).toEqual({ keys: [] });
  });
});

describe('JWT keys with an asymmetric signing key', () => {
  it.each(['RS256', 'ES256'] as const)('sign with the %s key and its kid', async (alg) => {
    const signer = await privateJwk(alg);
    const keys = await createJwtKeys({ secret, signingKeys: [signer] });
    const token = await keys.sign({ role: 'authenticated' }, inAnHour());
    expect(decodeProtectedHeader(token)).toEqual({ alg, kid: signer.kid, typ: 'JWT' });
    await expect(jwtVerify(token, keys.services.key, keys.services)).resolves.toBeDefined();
    expect(keys.publicJwks.keys[0]).not.toHaveProperty('d');
  });

  it('services refuse an HS256 token; Auth still accepts one without a kid, as GoTrue does', async () => {
    const keys = await createJwtKeys({ secret, signingKeys: [await privateJwk('RS256')] });
    const legacy = await hs256Token();
    await expect(jwtVerify(legacy, keys.services.key, keys.services)).rejects.toThrow();
    await expect(jwtVerify(legacy, keys.auth.key, keys.auth)).resolves.toBeDefined();
  });

  it('signs the API keys for ten years with the signing key, as the CLI does', async () => {
    const keys = await createJwtKeys({ secret, signingKeys: [await privateJwk('RS256')] });
    const { anonKey, serviceRoleKey } = await projectApiKeys(keys, { anonKey: 'a', serviceRoleKey: 's' });
    expect(decodeJwt(anonKey)).toMatchObject({ iss: 'supabase-demo', role: 'anon' });
    expect(decodeJwt(serviceRoleKey)).toMatchObject({ role: 'service_role' });
    expect((decodeJwt(anonKey).exp ?? 0) - Date.now() / 1000).toBeGreaterThan(9 * 365 * 24 * 3600);
  });

  it('refuses a key set without exactly one signing key, or of an algorithm it does not sign with', async () => {
    const verifyOnly = await privateJwk('RS256', ['verify']);
    await expect(createJwtKeys({ secret, signingKeys: [verifyOnly] })).rejects.toThrow(
      'no signing key detected',
    );
    const two = [await privateJwk('RS256'), await privateJwk('ES256')];
    await expect(createJwtKeys({ secret, signingKeys: two })).rejects.toThrow(
      'multiple signing keys detected',
    );
    const eddsa = { ...(await privateJwk('ES256')), alg: 'EdDSA' };
    await expect(createJwtKeys({ secret, signingKeys: [eddsa] })).rejects.toThrow(
      'the local stack supports RS256 and ES256 keys',
    );
  });
});
