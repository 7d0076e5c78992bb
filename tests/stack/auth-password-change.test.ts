import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import {
  apiClient,
  mailTo,
  signIn,
  signUpNewPerson,
  signUpPersonWithTotp,
  testGatewayOptions,
  type ApiClient,
  type Person,
} from '../support/api';
import { connect } from '../support/db';
import { unusedTotpCode } from '../support/two-factor-sign-in';

/**
 * How hosted Auth guards a new password on `PUT /user`, read from supabase/auth internal/api/user.go
 * (`UserUpdate`) and internal/api/reauthenticate.go; supabase/config.toml has
 * `[auth.email] require_current_password = true`.
 */

async function stillSignsIn(person: Person, password: string) {
  const { error } = await apiClient().auth.signInWithPassword({ email: person.email, password });
  return error === null;
}

/** A session from the person's mailed reset link (implicit flow: amr `otp`). */
async function recoverySession(email: string, client: ApiClient = apiClient()) {
  expect((await apiClient().auth.resetPasswordForEmail(email)).error).toBeNull();
  const link = (await mailTo(email)).at(-1)?.links[0] ?? '';
  const location = (await fetch(link, { redirect: 'manual' })).headers.get('location') ?? '';
  const fragment = new URLSearchParams(new URL(location).hash.slice(1));
  const { error } = await client.auth.setSession({
    access_token: fragment.get('access_token') ?? '',
    refresh_token: fragment.get('refresh_token') ?? '',
  });
  expect(error).toBeNull();
  return client;
}

describe('update_password_require_current_password (supabase/auth PR 2364)', () => {
  it('refuses a new password without current_password: 400 current_password_required, nothing changed', async () => {
    const person = await signUpNewPerson();
    const { error } = await person.client.auth.updateUser({ password: 'taken-over-123' });
    expect(error).toMatchObject({
      status: 400,
      code: 'current_password_required',
      message: 'Current password required when setting new password.',
    });
    expect(await stillSignsIn(person, person.password)).toBe(true);
    expect(await stillSignsIn(person, 'taken-over-123')).toBe(false);
  });

  it('refuses a wrong current_password: 400 current_password_invalid, nothing changed', async () => {
    const person = await signUpNewPerson();
    const { error } = await person.client.auth.updateUser({
      password: 'taken-over-123',
      current_password: 'a-guess-456',
    });
    expect(error).toMatchObject({ status: 400, code: 'current_password_invalid' });
    expect(await stillSignsIn(person, person.password)).toBe(true);
  });

  it('sets the new password when current_password is right', async () => {
    const person = await signUpNewPerson();
    const { error } = await person.client.auth.updateUser({
      password: 'chosen-later-789',
      current_password: person.password,
    });
    expect(error).toBeNull();
    expect(await stillSignsIn(person, 'chosen-later-789')).toBe(true);
  });

  it('does not ask for it in a session a reset link started (Session.IsRecovery)', async () => {
    const person = await signUpNewPerson();
    const client = await recoverySession(person.email);
    expect((await client.auth.updateUser({ password: 'recovered-pass-1' })).error).toBeNull();
    expect(await stillSignsIn(person, 'recovered-pass-1')).toBe(true);
  });
});

describe('aal2 for a factor holder’s password change (supabase/auth PR 1766)', () => {
  it('refuses an aal1 session: 401 insufficient_aal, password and aal2 sessions unchanged', async () => {
    const person = await signUpPersonWithTotp();
    const thief = await signIn(person.email, person.password);
    const { error } = await thief.client.auth.updateUser({
      password: 'taken-over-123',
      current_password: person.password,
    });
    expect(error).toMatchObject({
      status: 401,
      code: 'insufficient_aal',
      message: 'AAL2 session is required to update email or password when MFA is enabled.',
    });
    expect(await stillSignsIn(person, person.password)).toBe(true);
    expect((await person.client.auth.getUser()).error).toBeNull();
  });

  it('lets the aal2 session change it with the current password', async () => {
    const person = await signUpPersonWithTotp();
    const { error } = await person.client.auth.updateUser({
      password: 'second-factor-ok-1',
      current_password: person.password,
    });
    expect(error).toBeNull();
  });
});

describe('recovery for a factor holder (supabase/auth issue 2091)', () => {
  it('needs the code before the reset link’s session may set the new password', async () => {
    const person = await signUpPersonWithTotp();
    const client = await recoverySession(person.email);
    const before = await client.auth.updateUser({ password: 'recovered-pass-2' });
    expect(before.error).toMatchObject({ status: 401, code: 'insufficient_aal' });

    const code = await unusedTotpCode(person.totpSecret);
    expect((await client.auth.mfa.challengeAndVerify({ factorId: person.factorId, code })).error).toBeNull();
    expect((await client.auth.updateUser({ password: 'recovered-pass-2' })).error).toBeNull();
    expect(await stillSignsIn(person, 'recovered-pass-2')).toBe(true);
  });
});

describe('secure_password_change: the reauthentication nonce (internal/api/reauthenticate.go)', () => {
  let gateway: RunningGateway;
  const db = connect(inject('databaseUrl'), 2);
  beforeAll(async () => {
    gateway = await startGateway(
      testGatewayOptions({
        project: { securePasswordChange: true, requireCurrentPassword: false, emailMaxFrequencySeconds: 0 },
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([gateway.stop(), db.end()]);
  });

  /** A person whose session started more than 24 hours ago: "not signed in recently". */
  async function longSignedIn() {
    const person = await signUpNewPerson();
    const client = apiClient(inject('anonKey'), gateway.url);
    await client.auth.signInWithPassword({ email: person.email, password: person.password });
    const { rows } = await db.query<{ id: string }>(
      `update auth.sessions set created_at = now() - interval '25 hours'
       where user_id = $1 and created_at = (select max(created_at) from auth.sessions where user_id = $1)
       returning id`,
      [person.id],
    );
    expect(rows).toHaveLength(1);
    return { person, client };
  }

  it('asks a session older than 24 hours for a nonce: 400 reauthentication_needed', async () => {
    const { person, client } = await longSignedIn();
    const { error } = await client.auth.updateUser({ password: 'no-nonce-123' });
    expect(error).toMatchObject({
      status: 400,
      code: 'reauthentication_needed',
      message: 'Password update requires reauthentication',
    });
    expect(await stillSignsIn(person, person.password)).toBe(true);
  });

  /** The newest nonce mailed to `email` by this gateway ("123456 is your verification code"). */
  function mailedNonce(email: string) {
    const mail = gateway.mailbox
      .list(email)
      .findLast((message) => message.subject.endsWith(' is your verification code'));
    return mail?.subject.slice(0, 6) ?? '';
  }

  it('mails a six-digit nonce that sets the password once; a wrong one is 422 reauthentication_not_valid', async () => {
    const { person, client } = await longSignedIn();
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const nonce = mailedNonce(person.email);
    expect(nonce).toMatch(/^\d{6}$/);

    const wrong = await client.auth.updateUser({
      password: 'nonce-pass-1',
      nonce: nonce === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
      message: 'Nonce has expired or is invalid',
    });
    expect(await stillSignsIn(person, person.password)).toBe(true);
    expect((await client.auth.updateUser({ password: 'nonce-pass-1', nonce })).error).toBeNull();
    const again = await client.auth.updateUser({ password: 'nonce-pass-2', nonce });
    expect(again.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
  });

  it('does not ask a session started within 24 hours', async () => {
    const person = await signUpNewPerson();
    const client = apiClient(inject('anonKey'), gateway.url);
    await client.auth.signInWithPassword({ email: person.email, password: person.password });
    expect((await client.auth.updateUser({ password: 'recent-enough-1' })).error).toBeNull();
  });
});
