import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { apiClient, forgedToken, testGatewayOptions } from '../support/api';

/**
 * `[auth] signing_keys_path` as the Supabase CLI wires it (internal/start/start.go, pkg/config apikeys.go and
 * ResolveJWKS): Auth signs with the RS256 key and its `kid`, publishes the public half at
 * `/auth/v1/.well-known/jwks.json` (supabase/auth internal/api/jwks.go), the API keys are signed with it, and
 * PostgREST verifies against that JWKS alone. The project's own stack keeps the HS256 secret.
 */
let folder: string;
let gateway: RunningGateway;
let signingKey: JWK;

beforeAll(async () => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  signingKey = {
    ...(await exportJWK(privateKey)),
    kid: randomUUID(),
    alg: 'RS256',
    key_ops: ['sign', 'verify'],
  };
  folder = await mkdtemp(path.join(tmpdir(), 'signing-keys-'));
  const keysFile = path.join(folder, 'signing_keys.json');
  await writeFile(keysFile, JSON.stringify([signingKey]));
  gateway = await startGateway(testGatewayOptions({ project: { signingKeysPath: keysFile } }));
});
afterAll(async () => {
  await gateway.stop();
  await rm(folder, { recursive: true, force: true });
});

async function jwks(url: string) {
  const response = await fetch(`${url}/auth/v1/.well-known/jwks.json`);
  return { response, body: (await response.json()) as { keys: JWK[] } };
}

describe('a project with an asymmetric signing key', () => {
  it('publishes the public half only, to anyone, cached ten minutes', async () => {
    const { response, body } = await jwks(gateway.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    expect(body.keys).toEqual([
      {
        kty: 'RSA',
        kid: signingKey.kid,
        alg: 'RS256',
        n: signingKey.n,
        e: signingKey.e,
        use: 'sig',
        key_ops: ['verify'],
      },
    ]);
  });

  it('signs the API keys and every access token with that key, so anyone with the JWKS can check them', async () => {
    expect(decodeProtectedHeader(gateway.anonKey)).toMatchObject({ alg: 'RS256', kid: signingKey.kid });
    const client = apiClient(gateway.anonKey, gateway.url);
    const { data, error } = await client.auth.signUp({
      email: `signing-${randomUUID()}@example.com`,
      password: `pass-${randomUUID()}`,
    });
    expect(error).toBeNull();
    const token = data.session?.access_token ?? '';
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', kid: signingKey.kid });
    const { payload } = await jwtVerify(token, createLocalJWKSet((await jwks(gateway.url)).body));
    expect(payload).toMatchObject({ sub: data.user?.id, role: 'authenticated' });
    // auth-js verifies an asymmetric token itself, with the JWKS, instead of asking Auth.
    const { data: claims } = await client.auth.getClaims();
    expect(claims?.claims.sub).toBe(data.user?.id);
    const profile = await client
      .from('profiles')
      .select('id')
      .eq('id', data.user?.id ?? '');
    expect(profile.data).toEqual([{ id: data.user?.id }]);
  });

  it('refuses the HS256 keys at the gateway and HS256 tokens at REST, as PostgREST with that JWKS does', async () => {
    const legacy = await fetch(`${gateway.url}/rest/v1/coins?select=id`, {
      headers: { apikey: inject('anonKey') },
    });
    expect(legacy.status).toBe(401);
    expect(await legacy.json()).toMatchObject({ message: 'Invalid API key' });
    const hs256 = await fetch(`${gateway.url}/rest/v1/coins?select=id`, {
      headers: {
        apikey: gateway.anonKey,
        authorization: `Bearer ${await forgedToken({ sub: randomUUID() })}`,
      },
    });
    expect(hs256.status).toBe(401);
    expect(await hs256.json()).toMatchObject({ code: 'PGRST301' });
  });
});

describe('a project without signing keys', () => {
  it('publishes no key: the HS256 secret is never exposed', async () => {
    const { response, body } = await jwks(inject('apiUrl'));
    expect(response.status).toBe(200);
    expect(body).toEqual({ keys: [] });
  });
});
