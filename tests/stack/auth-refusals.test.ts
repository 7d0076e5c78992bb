import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, callApi, forgedToken, postAuth, signUpNewPerson } from '../support/api';

const apiUrl = () => inject('apiUrl');

function claimsOf(accessToken: string): Record<string, unknown> {
  const [, payload] = accessToken.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function getUser(token: string) {
  const response = await callApi('/auth/v1/user', {
    headers: { Authorization: `Bearer ${token}`, 'x-supabase-api-version': '2024-01-01' },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function putUser(token: string, body: Record<string, unknown>) {
  const response = await callApi('/auth/v1/user', {
    method: 'PUT',
    headers: {
      Authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('providers the project does not enable, refused as GoTrue refuses them', () => {
  it('answers an anonymous sign-up with anonymous_provider_disabled', async () => {
    const { error } = await apiClient().auth.signInAnonymously();
    expect(error).toMatchObject({
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    });
  });

  it('answers phone sign-ups and phone log-ins with phone_provider_disabled', async () => {
    const signUp = await apiClient().auth.signUp({ phone: '+15555550123', password: 'long-enough-1' });
    expect(signUp.error).toMatchObject({
      status: 400,
      code: 'phone_provider_disabled',
      message: 'Phone signups are disabled',
    });
    const logIn = await apiClient().auth.signInWithPassword({
      phone: '+15555550123',
      password: 'long-enough-1',
    });
    expect(logIn.error).toMatchObject({
      status: 422,
      code: 'phone_provider_disabled',
      message: 'Phone logins are disabled',
    });
  });

  // A 5xx would be retried by auth-js as a network fault: every refusal is a 4xx (api/middleware.go,
  // api/external.go for what hosted answers with the feature off).
  it('refuses endpoints the stack does not implement with a 4xx naming the feature', async () => {
    const resend = await postAuth(apiUrl(), '/resend', {
      type: 'signup',
      email: `resend-${randomUUID()}@example.com`,
    });
    expect(resend).toEqual({
      status: 404,
      body: {
        code: 'feature_disabled',
        message: 'Resending confirmation mails are not supported by the local stack',
      },
    });
    // Opened by the browser (signInWithOAuth), so without an API key, as on Supabase; no provider is on.
    const authorize = await fetch(`${apiUrl()}/auth/v1/authorize?provider=github`, {
      headers: { 'x-supabase-api-version': '2024-01-01' },
    });
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toEqual({
      code: 'validation_failed',
      message: 'Unsupported provider: provider is not enabled',
    });
    expect(await postAuth(apiUrl(), '/sso', { domain: 'example.com' })).toMatchObject({
      status: 404,
      body: { code: 'saml_provider_disabled' },
    });
  });
});

describe('passwords as GoTrue checks them (api/password.go)', () => {
  it('refuses a password longer than 72 bytes, which bcrypt would cut', async () => {
    const answer = await postAuth(apiUrl(), '/signup', {
      email: `long-${randomUUID()}@example.com`,
      password: `${'é'.repeat(36)}x`,
    });
    expect(answer).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'Password cannot be longer than 72 characters' },
    });
  });

  it('signs in with the 72 bytes that were set, never with those 72 bytes and more', async () => {
    const email = `exact-${randomUUID()}@example.com`;
    const password = 'p'.repeat(72);
    expect((await apiClient().auth.signUp({ email, password })).error).toBeNull();
    expect((await apiClient().auth.signInWithPassword({ email, password })).error).toBeNull();
    const longer = await apiClient().auth.signInWithPassword({ email, password: `${password}-and-more` });
    expect(longer.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('validates the password before the e-mail address on sign-up', async () => {
    const answer = await postAuth(apiUrl(), '/signup', { email: 'not-an-email', password: '123' });
    expect(answer).toMatchObject({ status: 422, body: { code: 'weak_password' } });
  });

  it('answers an empty new password with weak_password', async () => {
    const person = await signUpNewPerson();
    const answer = await putUser(person.accessToken, { password: '' });
    expect(answer).toMatchObject({
      status: 422,
      body: { code: 'weak_password', message: 'Password should be at least 6 characters.' },
    });
  });
});

describe('tokens and user updates (api/auth.go, api/user.go)', () => {
  it('answers a validly signed token whose sub is not a UUID with bad_jwt, never a server error', async () => {
    const answer = await getUser(await forgedToken({ sub: 'not-a-uuid', session_id: randomUUID() }));
    expect(answer).toEqual({
      status: 400,
      body: { code: 'bad_jwt', message: 'invalid claim: sub claim must be a UUID' },
    });
  });

  it('answers a validly signed token whose session_id is not a UUID with bad_jwt', async () => {
    const person = await signUpNewPerson();
    const answer = await getUser(await forgedToken({ sub: person.id, session_id: 'session-1' }));
    expect(answer).toEqual({
      status: 403,
      body: { code: 'bad_jwt', message: 'invalid claim: session_id claim must be a UUID' },
    });
  });

  it('refuses a token for another audience on GET /user', async () => {
    const person = await signUpNewPerson();
    const answer = await getUser(
      await forgedToken({ ...claimsOf(person.accessToken), aud: 'another-audience' }),
    );
    expect(answer).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: "Token audience doesn't match request audience" },
    });
  });

  it('refuses app_metadata from the person themselves with not_admin', async () => {
    const person = await signUpNewPerson();
    const answer = await putUser(person.accessToken, { app_metadata: { role: 'admin' } });
    expect(answer).toEqual({
      status: 403,
      body: { code: 'not_admin', message: 'Updating app_metadata requires admin privileges' },
    });
  });

  it("accepts GoTrue's other default admin role, supabase_admin, on the admin API", async () => {
    const person = await signUpNewPerson();
    const response = await callApi(`/auth/v1/admin/users/${person.id}`, {
      method: 'DELETE',
      headers: {
        Authorization: `Bearer ${await forgedToken({ role: 'supabase_admin', aud: undefined })}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(response.status).toBe(200);
    const signInAgain = await apiClient().auth.signInWithPassword({
      email: person.email,
      password: person.password,
    });
    expect(signInAgain.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('refuses the admin API to a token of any other role', async () => {
    const person = await signUpNewPerson();
    const response = await callApi(`/auth/v1/admin/users/${person.id}`, {
      method: 'DELETE',
      headers: {
        Authorization: `Bearer ${await forgedToken({ role: 'supabase_auth_admin' })}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
  });

  it('removes user_metadata keys set to null and keeps the others', async () => {
    const person = await signUpNewPerson('Ada');
    await person.client.auth.updateUser({ data: { nickname: 'ada', city: 'London' } });
    const { data } = await person.client.auth.updateUser({ data: { nickname: null } });
    expect(data.user?.user_metadata).toEqual({ full_name: 'Ada', email_verified: true, city: 'London' });
  });
});

describe('error bodies by API version (api/errors.go)', () => {
  it('answers without X-Supabase-Api-Version in the older {code: status, error_code, msg} shape', async () => {
    const response = await callApi('/auth/v1/token?grant_type=password', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `nobody-${randomUUID()}@example.com`, password: 'wrong-pass' }),
    });
    expect(response.headers.get('x-supabase-api-version')).toBeNull();
    expect(await response.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });
});
