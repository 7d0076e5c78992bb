import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import {
  apiClient,
  callApi,
  forgedToken,
  mailTo,
  postAuth,
  serviceClient,
  signUpNewPerson,
  testGatewayOptions,
} from '../support/api';

/**
 * GoTrue's small answers, each read from supabase/auth's source (the file is named above each test), and
 * pinned here against the local Auth.
 */
const apiUrl = () => inject('apiUrl');
const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
let emailOff: RunningGateway;
let confirming: RunningGateway;

beforeAll(async () => {
  [emailOff, confirming] = await Promise.all([
    startGateway(testGatewayOptions({ project: { enableEmailProvider: false } })),
    startGateway(testGatewayOptions({ project: { enableConfirmations: true } })),
  ]);
});
afterAll(async () => {
  await Promise.all([emailOff.stop(), confirming.stop(), db.end()]);
});

async function call(
  path: string,
  init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
) {
  const response = await callApi(`/auth/v1${path}`, {
    ...init,
    headers: { 'x-supabase-api-version': '2024-01-01', ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// internal/api/auth.go maybeLoadUserOrSession
describe('GET /user', () => {
  it('answers a token without session_id (a session is optional there)', async () => {
    const person = await signUpNewPerson();
    const answer = await call('/user', { headers: bearer(await forgedToken({ sub: person.id })) });
    expect(answer).toMatchObject({ status: 200, body: { id: person.id } });
  });

  it('answers a token whose role claim is not an API role', async () => {
    const person = await signUpNewPerson();
    const token = await forgedToken({ sub: person.id, role: 'wallet_auditor' });
    expect((await call('/user', { headers: bearer(token) })).status).toBe(200);
  });

  it('answers a deleted user’s still-valid token with 403 user_not_found', async () => {
    const person = await signUpNewPerson();
    expect((await serviceClient().auth.admin.deleteUser(person.id)).error).toBeNull();
    expect(await call('/user', { headers: bearer(person.accessToken) })).toEqual({
      status: 403,
      body: { code: 'user_not_found', message: 'User from sub claim in JWT does not exist' },
    });
  });
});

// internal/api/middleware.go requireAdminCredentials, internal/api/admin.go loadUser
describe('DELETE /admin/users/{id}', () => {
  const serviceToken = () => inject('serviceRoleKey');

  it('answers no Authorization with 401 no_authorization', async () => {
    expect(await call(`/admin/users/${randomUUID()}`, { method: 'DELETE' })).toMatchObject({
      status: 401,
      body: { code: 'no_authorization' },
    });
  });

  it('answers a badly signed bearer with 403 bad_jwt', async () => {
    const answer = await call(`/admin/users/${randomUUID()}`, {
      method: 'DELETE',
      headers: bearer(`${serviceToken().slice(0, -4)}AAAA`),
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'bad_jwt' } });
  });

  it('answers an id that is not a UUID with 404 validation_failed', async () => {
    const answer = await call('/admin/users/not-a-uuid', {
      method: 'DELETE',
      headers: bearer(serviceToken()),
    });
    expect(answer).toEqual({
      status: 404,
      body: { code: 'validation_failed', message: 'user_id must be an UUID' },
    });
  });
});

// internal/api/token.go ResourceOwnerPasswordGrant, internal/api/token_refresh.go Validate
describe('POST /token', () => {
  it('answers a password grant with neither e-mail nor phone with 400 "missing email or phone"', async () => {
    expect(await postAuth(apiUrl(), '/token?grant_type=password', {})).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'missing email or phone' },
    });
  });

  it('answers a password grant with both e-mail and phone with 400', async () => {
    const answer = await postAuth(apiUrl(), '/token?grant_type=password', {
      email: 'a@example.com',
      phone: '+15555550100',
      password: 'whatever-1',
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
  });

  it('answers a refresh grant without a token with 400 validation_failed', async () => {
    expect(await postAuth(apiUrl(), '/token?grant_type=refresh_token', {})).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'Refresh token is not valid' },
    });
  });

  it('answers e-mail log-ins while the provider is off with 422 email_provider_disabled', async () => {
    const answer = await postAuth(emailOff.url, '/token?grant_type=password', {
      email: 'a@example.com',
      password: 'whatever-1',
    });
    expect(answer).toEqual({
      status: 422,
      body: { code: 'email_provider_disabled', message: 'Email logins are disabled' },
    });
  });

  // internal/api/token_oidc.go getProvider: external providers are off on this stack.
  it('answers a Google ID token with 400 provider_disabled naming Google’s issuer', async () => {
    const answer = await postAuth(apiUrl(), '/token?grant_type=id_token', {
      provider: 'google',
      id_token: 'a-token',
    });
    expect(answer).toEqual({
      status: 400,
      body: {
        code: 'provider_disabled',
        message: 'Provider (issuer "https://accounts.google.com") is not enabled',
      },
    });
  });

  // internal/api/web3.go Web3Grant: neither chain is enabled on this stack.
  it('answers a Web3 sign-in with 422 web3_provider_disabled', async () => {
    expect(await postAuth(apiUrl(), '/token?grant_type=web3', { chain: 'solana' })).toEqual({
      status: 422,
      body: { code: 'web3_provider_disabled', message: 'Web3 provider is disabled' },
    });
  });
});

// internal/api/signup.go, internal/models/user.go Confirm, internal/api/verify.go signupVerify
describe('sign-up answers', () => {
  it('an auto-confirmed sign-up: user_metadata.email_verified true, the identity not verified by a link', async () => {
    const answer = await postAuth(apiUrl(), '/signup', {
      email: `verified-${randomUUID()}@example.com`,
      password: 'long-enough-1',
      data: { full_name: 'Ada' },
    });
    const user = answer.body.user as {
      user_metadata: Record<string, unknown>;
      identities: { identity_data: Record<string, unknown>; created_at: string; updated_at: string }[];
    };
    expect(user.user_metadata).toEqual({ full_name: 'Ada', email_verified: true });
    expect(user.identities[0]?.identity_data).toMatchObject({ email_verified: false, phone_verified: false });
  });

  it('writes identity timestamps as RFC 3339 in UTC with Z', async () => {
    const person = await signUpNewPerson();
    const { data } = await person.client.auth.getUser();
    for (const identity of data.user?.identities ?? []) {
      for (const at of [identity.created_at, identity.updated_at, identity.last_sign_in_at]) {
        expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/);
      }
    }
  });

  it('with confirmations on: confirmation_sent_at in the answer, and the link verifies both flags', async () => {
    const email = `confirm-${randomUUID()}@example.com`;
    const answer = await postAuth(confirming.url, '/signup', { email, password: 'long-enough-1' });
    expect(answer.body.confirmation_sent_at).toEqual(expect.any(String));
    const link = confirming.mailbox.list(email)[0]?.links[0] ?? '';
    await fetch(link, { redirect: 'manual' });
    const { rows } = await db.query<{ user_meta: unknown; identity: unknown }>(
      `select u.raw_user_meta_data->'email_verified' as user_meta, i.identity_data->'email_verified' as identity
       from auth.users u join auth.identities i on i.user_id = u.id where u.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ user_meta: true, identity: true }]);
  });
});

// internal/models/user.go: `email_confirmed_at`, `confirmed_at`, `last_sign_in_at` are `omitempty`
describe('fields GoTrue leaves out when empty', () => {
  it('leaves out email_confirmed_at, confirmed_at and last_sign_in_at of a user never confirmed', async () => {
    const email = `unconfirmed-${randomUUID()}@example.com`;
    const answer = await postAuth(confirming.url, '/signup', { email, password: 'long-enough-1' });
    expect(answer.status).toBe(200);
    for (const field of ['email_confirmed_at', 'confirmed_at', 'last_sign_in_at'])
      expect(answer.body).not.toHaveProperty(field);
    // A confirmed, signed-in user has all three.
    const person = await signUpNewPerson();
    const { data } = await person.client.auth.getUser();
    expect(data.user).toMatchObject({
      email_confirmed_at: expect.any(String),
      confirmed_at: expect.any(String),
      last_sign_in_at: expect.any(String),
    });
  });
});

// internal/api/logout.go
describe('POST /logout', () => {
  it('names an unknown scope as GoTrue quotes it', async () => {
    const person = await signUpNewPerson();
    const answer = await call('/logout?scope=everyone', {
      method: 'POST',
      headers: bearer(person.accessToken),
    });
    expect(answer).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'Unsupported logout scope "everyone"' },
    });
  });
});

// internal/api/verify.go verifyUserAndToken
describe('POST /verify with an e-mail and a token', () => {
  it('refuses another person’s recovery token for your address: 403 otp_expired, no session', async () => {
    const victim = await signUpNewPerson();
    const attacker = await signUpNewPerson();
    expect((await apiClient().auth.resetPasswordForEmail(attacker.email)).error).toBeNull();
    const link = new URL((await mailTo(attacker.email)).at(-1)?.links[0] ?? '');
    const token = (link.searchParams.get('token') ?? '').replace(/^pkce_/, '');
    const answer = await postAuth(apiUrl(), '/verify', { type: 'recovery', email: victim.email, token });
    expect(answer).toEqual({
      status: 403,
      body: { code: 'otp_expired', message: 'Token has expired or is invalid' },
    });
    // With an address, `token` is the mailed six-digit code, never the link's token hash, whoever's it is;
    // the link itself still works for the person it was mailed to.
    const own = await postAuth(apiUrl(), '/verify', { type: 'recovery', email: attacker.email, token });
    expect(own).toMatchObject({ status: 403, body: { code: 'otp_expired' } });
    const linked = await postAuth(apiUrl(), '/verify', { type: 'recovery', token_hash: token });
    expect(linked).toMatchObject({ status: 200, body: { user: { id: attacker.id } } });
  });
});
