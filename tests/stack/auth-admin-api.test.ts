import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, callApi, serviceClient, signIn, signUpNewPerson } from '../support/api';
import { totpCode } from '../../devstack/src/gateway/auth/totp';

// The admin API as supabase/auth serves it: internal/api/admin.go, internal/api/mail.go (adminGenerateLink),
// internal/api/middleware.go (requireAdminCredentials), internal/api/pagination.go.

const admin = () => serviceClient().auth.admin;
const newEmail = () => `admin-api-${randomUUID()}@example.com`;

async function adminCall(token: string | undefined, method: string, path: string, body?: unknown) {
  const response = await callApi(`/auth/v1${path}`, {
    method,
    headers: {
      'x-supabase-api-version': '2024-01-01',
      'content-type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe('the admin API answers the service role only, as requireAdminCredentials', () => {
  it('refuses the anon key and a signed-in person with 403 not_admin, and a call without a token with 401', async () => {
    const person = await signUpNewPerson();
    const notAdmin = { code: 'not_admin', message: 'User not allowed' };
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/users'],
      ['POST', '/admin/users', { email: newEmail(), password: 'long-enough-1' }],
      ['GET', `/admin/users/${person.id}`],
      ['PUT', `/admin/users/${person.id}`, { app_metadata: { role: 'admin' } }],
      ['GET', `/admin/users/${person.id}/factors`],
      ['POST', '/admin/generate_link', { type: 'recovery', email: person.email }],
    ];
    for (const [method, path, body] of calls) {
      expect(await adminCall(inject('anonKey'), method, path, body)).toMatchObject({
        status: 403,
        body: notAdmin,
      });
      expect(await adminCall(person.accessToken, method, path, body)).toMatchObject({
        status: 403,
        body: notAdmin,
      });
      expect(await adminCall(undefined, method, path, body)).toMatchObject({
        status: 401,
        body: { code: 'no_authorization' },
      });
    }
    // Nothing changed: the person is still no admin and no user was made.
    const { data } = await admin().getUserById(person.id);
    expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
  });
});

describe('createUser', () => {
  it('makes a confirmed user with metadata, a role and app_metadata, who signs in', async () => {
    const email = newEmail();
    const { data, error } = await admin().createUser({
      email,
      password: 'long-enough-1',
      email_confirm: true,
      user_metadata: { full_name: 'Made By Admin' },
      app_metadata: { plan: 'gold' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      role: 'authenticated',
      aud: 'authenticated',
      user_metadata: { full_name: 'Made By Admin', email_verified: true },
      app_metadata: { provider: 'email', providers: ['email'], plan: 'gold' },
      identities: [expect.objectContaining({ provider: 'email', email })],
    });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect((await signIn(email, 'long-enough-1')).id).toBe(data.user?.id);
  });

  it('makes an unconfirmed user when email_confirm is not set, who cannot sign in yet', async () => {
    const email = newEmail();
    const { data } = await admin().createUser({ email, password: 'long-enough-1' });
    expect(data.user?.email_confirmed_at).toBeFalsy();
    const { error } = await apiClient().auth.signInWithPassword({ email, password: 'long-enough-1' });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  });

  it('refuses a taken address (422 email_exists), a bad one, and neither address nor phone', async () => {
    const person = await signUpNewPerson();
    expect(
      (await admin().createUser({ email: person.email, password: 'long-enough-1' })).error,
    ).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
    expect((await admin().createUser({ email: 'xx:;x@x', password: 'long-enough-1' })).error).toMatchObject({
      status: 400,
      message: 'Unable to validate email address: invalid format',
    });
    expect((await admin().createUser({ password: 'long-enough-1' })).error).toMatchObject({
      status: 400,
      message: 'Cannot create a user without either an email or phone',
    });
    expect((await admin().createUser({ email: newEmail(), ban_duration: '1d' })).error).toMatchObject({
      status: 400,
      message: 'invalid format for ban duration: time: unknown unit "d" in duration "1d"',
    });
  });
});

describe('listUsers', () => {
  it('pages with per_page and answers X-Total-Count and Link as GoTrue', async () => {
    const tag = randomUUID().slice(0, 8);
    for (let index = 0; index < 3; index++)
      await admin().createUser({ email: `listed-${tag}-${index}@example.com`, password: 'long-enough-1' });
    const first = await adminCall(
      inject('serviceRoleKey'),
      'GET',
      `/admin/users?filter=listed-${tag}&per_page=2&page=1`,
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('3');
    expect(first.headers.get('link')).toBe(
      `</admin/users?filter=listed-${tag}&page=2&per_page=2>; rel="next", ` +
        `</admin/users?filter=listed-${tag}&page=2&per_page=2>; rel="last"`,
    );
    const body = first.body as { users: { email: string }[]; aud: string };
    expect(body.aud).toBe('authenticated');
    // Newest first.
    expect(body.users.map((user) => user.email)).toEqual([
      `listed-${tag}-2@example.com`,
      `listed-${tag}-1@example.com`,
    ]);
    const { data } = await admin().listUsers({ page: 1, perPage: 1000 });
    expect(data.users.map((user) => user.email)).toContain(`listed-${tag}-0@example.com`);
  });

  it('refuses a page that is not a number with 400 validation_failed', async () => {
    const { data, error } = await admin().listUsers({ page: -1, perPage: 10 });
    expect(error).toMatchObject({
      status: 400,
      message: 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax',
    });
    expect(data.users).toEqual([]);
  });
});

describe('getUserById and updateUserById', () => {
  it('finds a user, and answers 404 for an unknown id and a malformed one', async () => {
    const person = await signUpNewPerson('Found Person');
    expect((await admin().getUserById(person.id)).data.user).toMatchObject({
      id: person.id,
      email: person.email,
    });
    expect((await admin().getUserById(randomUUID())).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
    // supabase-js checks the id itself; GoTrue's own answer to a malformed one:
    expect(await adminCall(inject('serviceRoleKey'), 'GET', '/admin/users/not-a-uuid')).toMatchObject({
      status: 404,
      body: { code: 'validation_failed', message: 'user_id must be an UUID' },
    });
  });

  it('changes the e-mail, merges the metadata and sets a new password that ends every session', async () => {
    const person = await signUpNewPerson('Changed Person');
    const changedEmail = newEmail();
    const { data, error } = await admin().updateUserById(person.id, {
      email: changedEmail,
      password: 'new-long-enough-1',
      user_metadata: { full_name: null, city: 'Oslo' },
      app_metadata: { plan: 'gold' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: changedEmail,
      user_metadata: { city: 'Oslo', email_verified: true },
      app_metadata: { plan: 'gold', provider: 'email' },
    });
    expect(data.user?.user_metadata).not.toHaveProperty('full_name');
    expect((await person.client.auth.refreshSession()).error).toMatchObject({ status: 400 });
    expect((await signIn(changedEmail, 'new-long-enough-1')).id).toBe(person.id);
  });

  it('bans for ban_duration: no sign-in, no refresh, the old token refused; "none" lifts it', async () => {
    const person = await signUpNewPerson('Banned Person');
    const { data } = await admin().updateUserById(person.id, { ban_duration: '1h' });
    expect(new Date(data.user?.banned_until ?? 0).getTime()).toBeGreaterThan(Date.now() + 3_500_000);

    const signInAnswer = await apiClient().auth.signInWithPassword({
      email: person.email,
      password: person.password,
    });
    expect(signInAnswer.error).toMatchObject({ status: 400, code: 'user_banned', message: 'User is banned' });
    expect((await person.client.auth.refreshSession()).error).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'Invalid Refresh Token: User Banned',
    });
    expect((await apiClient().auth.getUser(person.accessToken)).error).toMatchObject({
      status: 403,
      code: 'user_banned',
    });

    await admin().updateUserById(person.id, { ban_duration: 'none' });
    expect((await signIn(person.email, person.password)).id).toBe(person.id);
  });

  it('confirms an unconfirmed user with email_confirm', async () => {
    const email = newEmail();
    const { data: created } = await admin().createUser({ email, password: 'long-enough-1' });
    const { data } = await admin().updateUserById(created.user?.id ?? '', { email_confirm: true });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect((await signIn(email, 'long-enough-1')).id).toBe(created.user?.id);
  });
});

describe('deleteUser', () => {
  it('deletes a user, who is then neither listed nor found', async () => {
    const { data: created } = await admin().createUser({ email: newEmail(), password: 'long-enough-1' });
    const id = created.user?.id ?? '';
    expect((await admin().deleteUser(id)).error).toBeNull();
    expect((await admin().getUserById(id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  it('soft-deletes with should_soft_delete: kept with deleted_at, address obfuscated, no sign-in', async () => {
    const person = await signUpNewPerson('Soft Deleted');
    expect((await admin().deleteUser(person.id, true)).error).toBeNull();
    const { data } = await admin().getUserById(person.id);
    expect(data.user?.deleted_at).toBeTruthy();
    expect(data.user?.email).not.toBe(person.email);
    expect(data.user?.user_metadata).toEqual({});
    const { error } = await apiClient().auth.signInWithPassword({
      email: person.email,
      password: person.password,
    });
    expect(error).toMatchObject({ code: 'invalid_credentials' });
    expect((await person.client.auth.refreshSession()).error).not.toBeNull();
  });
});

describe('generateLink', () => {
  it('answers a recovery link, its code and hashed token; the link and the code each sign in once', async () => {
    const person = await signUpNewPerson();
    const { data, error } = await admin().generateLink({ type: 'recovery', email: person.email });
    expect(error).toBeNull();
    expect(data.properties).toMatchObject({
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
      verification_type: 'recovery',
      redirect_to: 'http://localhost:5173',
    });
    expect(data.properties?.action_link).toBe(
      `${inject('apiUrl')}/auth/v1/verify?token=${data.properties?.hashed_token}&type=recovery&redirect_to=${encodeURIComponent('http://localhost:5173')}`,
    );
    const verified = await apiClient().auth.verifyOtp({
      email: person.email,
      token: data.properties?.email_otp ?? '',
      type: 'recovery',
    });
    expect(verified.data.user?.id).toBe(person.id);
    const again = await apiClient().auth.verifyOtp({
      token_hash: data.properties?.hashed_token ?? '',
      type: 'recovery',
    });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('makes the user of a sign-up link, confirmed by following it', async () => {
    const email = newEmail();
    const { data } = await admin().generateLink({
      type: 'signup',
      email,
      password: 'long-enough-1',
      options: { data: { status: 'alpha' } },
    });
    expect(data.user).toMatchObject({ email, user_metadata: { status: 'alpha' } });
    const response = await fetch(data.properties?.action_link ?? '', { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/#access_token=.*type=signup/);
    expect((await signIn(email, 'long-enough-1')).id).toBe(data.user?.id);
  });

  it('turns a magic link for an unknown address into a sign-up link, and invites with invited_at', async () => {
    const { data: magic } = await admin().generateLink({ type: 'magiclink', email: newEmail() });
    expect(magic.properties?.verification_type).toBe('signup');
    const { data: invited } = await admin().generateLink({ type: 'invite', email: newEmail() });
    expect(invited.user?.invited_at).toBeTruthy();
    const { data: session } = await apiClient().auth.verifyOtp({
      token_hash: invited.properties?.hashed_token ?? '',
      type: 'invite',
    });
    expect(session.user?.id).toBe(invited.user?.id);
    expect(session.user?.email_confirmed_at).toBeTruthy();
  });

  it('answers e-mail change links with new_email, whose hashed token makes the change', async () => {
    const person = await signUpNewPerson();
    const target = newEmail();
    const { data } = await admin().generateLink({
      type: 'email_change_current',
      email: person.email,
      newEmail: target,
    });
    expect(data.user?.new_email).toBe(target);
    expect(data.properties?.action_link).toMatch(/type=email_change/);
    // Confirmations off (the project's setting): one address's link is enough (api/verify.go).
    const changed = await apiClient().auth.verifyOtp({
      token_hash: data.properties?.hashed_token ?? '',
      type: 'email_change',
    });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.email).toBe(target);
  });

  it('refuses an unknown address for recovery (404), a confirmed one for sign-up (422), a bad address', async () => {
    const person = await signUpNewPerson();
    expect((await admin().generateLink({ type: 'recovery', email: newEmail() })).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User with this email not found',
    });
    expect(
      (await admin().generateLink({ type: 'signup', email: person.email, password: 'long-enough-1' })).error,
    ).toMatchObject({ status: 422, code: 'email_exists' });
    expect(
      (await admin().generateLink({ type: 'signup', email: 'xx:;x@x.x', password: 'long-enough-1' })).error,
    ).toMatchObject({ status: 400, message: 'Unable to validate email address: invalid format' });
  });
});

describe('admin MFA', () => {
  it('lists a person’s factors and deletes one, the session it raised dropping to aal1', async () => {
    const person = await signUpNewPerson();
    const enrolled = await person.client.auth.mfa.enroll({ factorType: 'totp' });
    await person.client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data?.id ?? '',
      code: totpCode(enrolled.data?.totp.secret ?? ''),
    });
    const listed = await admin().mfa.listFactors({ userId: person.id });
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({ id: enrolled.data?.id, factor_type: 'totp', status: 'verified' }),
    ]);
    const deleted = await admin().mfa.deleteFactor({ userId: person.id, id: enrolled.data?.id ?? '' });
    expect(deleted.error).toBeNull();
    expect((await admin().mfa.listFactors({ userId: person.id })).data?.factors).toEqual([]);
    const { data: refreshed } = await person.client.auth.refreshSession();
    const [, payload = ''] = (refreshed.session?.access_token ?? '').split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ aal: 'aal1' });
  });

  it('answers 404 for an unknown user and a malformed factor id', async () => {
    const person = await signUpNewPerson();
    expect((await admin().mfa.listFactors({ userId: randomUUID() })).error).toMatchObject({ status: 404 });
    expect(
      await adminCall(inject('serviceRoleKey'), 'DELETE', `/admin/users/${person.id}/factors/not-a-uuid`),
    ).toMatchObject({
      status: 404,
      body: { code: 'validation_failed', message: 'factor_id must be an UUID' },
    });
    expect(
      await adminCall(
        inject('serviceRoleKey'),
        'DELETE',
        `/admin/users/${person.id}/factors/${randomUUID()}`,
      ),
    ).toMatchObject({ status: 404, body: { code: 'mfa_factor_not_found', message: 'Factor not found' } });
  });
});
