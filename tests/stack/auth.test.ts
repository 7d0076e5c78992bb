import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { seededAccounts } from '../../supabase/seed-accounts';
import { apiClient, mailTo, serviceClient, signIn, signInAdmin, signUpNewPerson } from '../support/api';
import { fundPerson, requestBuy } from '../support/keyed-calls';

const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
afterAll(() => db.end());

describe('sign-up', () => {
  it('creates a confirmed user with a session and a profile made by the database', async () => {
    const person = await signUpNewPerson('Grace Hopper');
    const { data: profile, error } = await person.client
      .from('profiles')
      .select('*')
      .eq('id', person.id)
      .single();
    expect(error).toBeNull();
    expect(profile).toMatchObject({ email: person.email, full_name: 'Grace Hopper', role: 'user' });
    const { rows } = await db.query('select encrypted_password from auth.users where id = $1', [person.id]);
    expect(rows[0].encrypted_password).toMatch(/^\$2[aby]\$10\$/);
  });

  it('refuses an e-mail address that is already registered', async () => {
    const person = await signUpNewPerson();
    const { data, error } = await apiClient().auth.signUp({
      email: person.email.toUpperCase(),
      password: 'another-pass',
    });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      code: 'user_already_exists',
      status: 422,
      message: 'User already registered',
    });
    expect(data.session).toBeNull();
  });

  it('refuses a password shorter than the configured minimum', async () => {
    const { error } = await apiClient().auth.signUp({
      email: `short-${Date.now()}@example.com`,
      password: '12345',
    });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({ code: 'weak_password', status: 422 });
  });

  it('refuses an address that is not an e-mail address', async () => {
    const { error } = await apiClient().auth.signUp({ email: 'not-an-email', password: 'long-enough' });
    expect(error).toMatchObject({ code: 'validation_failed', status: 400 });
  });
});

describe('password sign-in', () => {
  it('signs the seeded user in with a JWT that carries the Supabase claims', async () => {
    const person = await signIn(seededAccounts.user.email, seededAccounts.user.password);
    const [, payload] = person.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      sub: person.id,
      role: 'authenticated',
      aud: 'authenticated',
      email: person.email,
    });
    expect(claims).toHaveProperty('session_id');
    expect(claims).toHaveProperty('exp');
  });

  it('answers a wrong password with invalid_credentials', async () => {
    const { data, error } = await apiClient().auth.signInWithPassword({
      email: seededAccounts.user.email,
      password: 'wrong-password',
    });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      code: 'invalid_credentials',
      status: 400,
      message: 'Invalid login credentials',
    });
    expect(data.session).toBeNull();
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const { error } = await apiClient().auth.signInWithPassword({
      email: 'nobody@example.com',
      password: 'whatever',
    });
    expect(error).toMatchObject({ code: 'invalid_credentials', status: 400 });
  });
});

describe('sessions', () => {
  it('returns the signed-in user from GET /user', async () => {
    const person = await signUpNewPerson();
    const { data, error } = await person.client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id: person.id, email: person.email, aud: 'authenticated' });
  });

  it('rotates refresh tokens: each refresh returns a new token and a new access token', async () => {
    const person = await signUpNewPerson();
    const first = (await person.client.auth.getSession()).data.session;
    const { data, error } = await person.client.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).not.toBe(first?.refresh_token);
    expect(data.session?.user.id).toBe(person.id);
  });

  it('gives an older token a new child within the reuse interval (tabs refreshing at once)', async () => {
    const person = await signUpNewPerson();
    const first = (await person.client.auth.getSession()).data.session?.refresh_token ?? '';
    const second = await apiClient().auth.refreshSession({ refresh_token: first });
    const third = await apiClient().auth.refreshSession({
      refresh_token: second.data.session?.refresh_token ?? '',
    });
    const again = await apiClient().auth.refreshSession({ refresh_token: first });
    expect(again.error).toBeNull();
    expect([first, second.data.session?.refresh_token, third.data.session?.refresh_token]).not.toContain(
      again.data.session?.refresh_token,
    );
  });

  it('refuses a refresh token after logout', async () => {
    const person = await signUpNewPerson();
    const refreshToken = (await person.client.auth.getSession()).data.session?.refresh_token ?? '';
    expect((await person.client.auth.signOut()).error).toBeNull();
    const { error } = await apiClient().auth.refreshSession({ refresh_token: refreshToken });
    expect(error).toMatchObject({ code: 'refresh_token_not_found', status: 400 });
  });

  it('ends the session on logout, so its access token no longer reads the user', async () => {
    const person = await signUpNewPerson();
    await person.client.auth.signOut();
    const { data, error } = await apiClient().auth.getUser(person.accessToken);
    // GoTrue answers session_not_found, which supabase-js reports as a missing session.
    expect(error?.name).toBe('AuthSessionMissingError');
    expect(data.user).toBeNull();
  });

  it('changes the password: the new one signs in and the old one no longer does', async () => {
    const person = await signUpNewPerson();
    const { error } = await person.client.auth.updateUser({
      password: 'brand-new-password',
      current_password: person.password,
    });
    expect(error).toBeNull();
    expect((await signIn(person.email, 'brand-new-password')).id).toBe(person.id);
    const old = await apiClient().auth.signInWithPassword({ email: person.email, password: person.password });
    expect(old.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('refuses a new password equal to the current one', async () => {
    const person = await signUpNewPerson();
    const { error } = await person.client.auth.updateUser({
      password: person.password,
      current_password: person.password,
    });
    expect(error).toMatchObject({ code: 'same_password', status: 422 });
  });
});

describe('password recovery', () => {
  it('mails a reset link whose redirect carries a session for the user', async () => {
    const person = await signUpNewPerson();
    const redirectTo = 'http://localhost:5173/update-password';
    const { error } = await apiClient().auth.resetPasswordForEmail(person.email, { redirectTo });
    expect(error).toBeNull();

    const [mail] = await mailTo(person.email);
    expect(mail?.subject).toBe('Reset your password');
    const link = mail?.links[0] ?? '';
    expect(link).toContain('/auth/v1/verify?');

    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const location = new URL(followed.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(redirectTo);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');

    const client = apiClient();
    const { error: sessionError } = await client.auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    });
    expect(sessionError).toBeNull();
    expect((await client.auth.getUser()).data.user?.id).toBe(person.id);
    expect((await client.auth.updateUser({ password: 'recovered-password' })).error).toBeNull();
    expect((await signIn(person.email, 'recovered-password')).id).toBe(person.id);
  });

  it('accepts a reset link only once', async () => {
    const person = await signUpNewPerson();
    await apiClient().auth.resetPasswordForEmail(person.email);
    const link = (await mailTo(person.email))[0]?.links[0] ?? '';
    await fetch(link, { redirect: 'manual' });
    const again = await fetch(link, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(again.headers.get('location') ?? '').hash.slice(1));
    expect(fragment.get('error_code')).toBe('otp_expired');
    expect(fragment.get('access_token')).toBeNull();
  });

  it('never redirects to a site outside the allow list', async () => {
    const person = await signUpNewPerson();
    await apiClient().auth.resetPasswordForEmail(person.email, {
      redirectTo: 'https://evil.example.net/steal',
    });
    const link = (await mailTo(person.email))[0]?.links[0] ?? '';
    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.headers.get('location')).toMatch(/^http:\/\/localhost:5173#/);
  });

  it('answers an unknown address like a known one and sends nothing', async () => {
    const email = `unknown-${Date.now()}@example.com`;
    expect((await apiClient().auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(await mailTo(email)).toEqual([]);
  });
});

describe('admin user deletion', () => {
  it('closes a person with nothing left: the sign-in goes, the profile stays nameless with its books', async () => {
    const person = await signUpNewPerson();

    const { error } = await serviceClient().auth.admin.deleteUser(person.id);
    expect(error).toBeNull();

    const { rows } = await db.query(
      `select (select count(*) from auth.users where id = $1)::int as users,
              (select count(*) from public.profiles
                where id = $1 and email is null and full_name is null and closed_at is not null)::int as closed`,
      [person.id],
    );
    expect(rows[0]).toEqual({ users: 0, closed: 1 });
    const signInAgain = await apiClient().auth.signInWithPassword({
      email: person.email,
      password: person.password,
    });
    expect(signInAgain.error).toMatchObject({ code: 'invalid_credentials' });
  });

  // GoTrue's adminUserDelete (internal/api/admin.go) answers a refused delete with its own 500.
  it('refuses to delete a person with an open request, as GoTrue answers a database refusal', async () => {
    const person = await signUpNewPerson();
    // A buy reserves its USD: the person needs the 25 first.
    await fundPerson((await signInAdmin()).client, person.id, 25);
    expect((await requestBuy(person.client, 'bitcoin', 25)).error).toBeNull();

    const response = await fetch(`${inject('apiUrl')}/auth/v1/admin/users/${person.id}`, {
      method: 'DELETE',
      headers: {
        apikey: inject('serviceRoleKey'),
        Authorization: `Bearer ${inject('serviceRoleKey')}`,
        'X-Supabase-Api-Version': '2024-01-01',
      },
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: 'unexpected_failure',
      message: 'Database error deleting user',
    });
    const { rows } = await db.query(
      `select (select count(*) from auth.users where id = $1)::int as users,
              (select count(*) from public.buy_requests where user_id = $1)::int as buy_requests`,
      [person.id],
    );
    expect(rows[0]).toEqual({ users: 1, buy_requests: 1 });
  });

  it('refuses deletion with a user JWT, even an admin one', async () => {
    const person = await signUpNewPerson();
    const admin = await signInAdmin();
    const response = await fetch(`${inject('apiUrl')}/auth/v1/admin/users/${person.id}`, {
      method: 'DELETE',
      headers: {
        apikey: inject('anonKey'),
        Authorization: `Bearer ${admin.accessToken}`,
        'X-Supabase-Api-Version': '2024-01-01',
      },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'not_admin', message: 'User not allowed' });
  });
});
