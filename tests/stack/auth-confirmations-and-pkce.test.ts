import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createNodeClient } from '../support/node-client';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { projectConfigFromToml } from '../../devstack/src/gateway/project-config';
import { postAuth, signUpNewPerson } from '../support/api';

/** Gateways over the test database as a hosted project would run: confirmations on; sign-ups off. */
let confirming: RunningGateway;
let closed: RunningGateway;
const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
const generous = { limit: 100_000, windowMs: 60_000 };
const rateLimits = { signInSignUps: generous, tokenRefresh: generous, verify: generous, emailSent: generous };

beforeAll(async () => {
  const base = {
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    rateLimits,
  };
  [confirming, closed] = await Promise.all([
    startGateway({ ...base, project: { enableConfirmations: true } }),
    startGateway({ ...base, project: { enableSignup: false } }),
  ]);
});
afterAll(async () => {
  await Promise.all([confirming.stop(), closed.stop(), db.end()]);
});

function client(gateway: RunningGateway) {
  return createNodeClient(gateway.url, inject('anonKey'));
}

function post(gateway: RunningGateway, path: string, body: Record<string, unknown>) {
  return postAuth(gateway.url, path, body);
}

/** Follows a mailed link as a browser would, without following its redirect. */
async function follow(link: string) {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  return { location, query: location.searchParams, fragment: new URLSearchParams(location.hash.slice(1)) };
}

function pkcePair() {
  const verifier = randomBytes(42).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function amrOf(accessToken: string): unknown {
  const [, payload] = accessToken.split('.');
  return (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { amr: unknown }).amr;
}

const newEmail = (prefix: string) => `${prefix}-${randomUUID()}@example.com`;

describe('enable_confirmations = true (hosted default)', () => {
  it('signs a new address up without a session and mails it a confirmation link', async () => {
    const email = newEmail('confirm');
    const { data, error } = await client(confirming).auth.signUp({ email, password: 'long-enough-1' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email });
    expect(data.user).not.toHaveProperty('email_confirmed_at');
    const [mail] = confirming.mailbox.list(email);
    expect(mail?.subject).toBe('Confirm your email address');
    expect(mail?.links[0]).toMatch(/\/auth\/v1\/verify\?token=[^&]+&type=signup&redirect_to=/);
  });

  it('refuses a password log-in before confirmation with email_not_confirmed', async () => {
    const email = newEmail('unconfirmed');
    await client(confirming).auth.signUp({ email, password: 'long-enough-1' });
    const { data, error } = await client(confirming).auth.signInWithPassword({
      email,
      password: 'long-enough-1',
    });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
    expect(data.session).toBeNull();
  });

  it('confirms the address through /verify?type=signup, which signs the person in, once', async () => {
    const email = newEmail('verified');
    await client(confirming).auth.signUp({ email, password: 'long-enough-1' });
    const link = confirming.mailbox.list(email)[0]?.links[0] ?? '';
    const { fragment } = await follow(link);
    expect(fragment.get('type')).toBe('signup');
    expect(amrOf(fragment.get('access_token') ?? '')).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);
    const logIn = await client(confirming).auth.signInWithPassword({ email, password: 'long-enough-1' });
    expect(logIn.error).toBeNull();
    expect(logIn.data.user?.email_confirmed_at).not.toBeNull();
    expect((await follow(link)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('answers a sign-up of a confirmed address like a new one, reveals nothing and mails nothing', async () => {
    const person = await signUpNewPerson();
    const { data, error } = await client(confirming).auth.signUp({
      email: person.email,
      password: 'other-pass-1',
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.id).not.toBe(person.id);
    expect(confirming.mailbox.list(person.email)).toEqual([]);
  });
});

describe('config.toml switches', () => {
  it('enable_signup = false refuses sign-ups with signup_disabled', async () => {
    const answer = await post(closed, '/signup', { email: newEmail('closed'), password: 'long-enough-1' });
    expect(answer).toEqual({
      status: 422,
      body: { code: 'signup_disabled', message: 'Signups not allowed for this instance' },
    });
  });

  it('stops the stack at start, naming each Auth switch it does not implement', () => {
    expect(() =>
      projectConfigFromToml(
        '[auth]\nenable_refresh_token_rotation = false\n[auth.external.github]\nenabled = true\n',
      ),
    ).toThrow(
      'supabase/config.toml: the local stack does not support [auth] enable_refresh_token_rotation = false, [auth.external.github] enabled = true',
    );
    expect(() => projectConfigFromToml('[auth.sms]\nenable_signup = true\n')).toThrow(
      '[auth.sms] enable_signup = true',
    );
    expect(projectConfigFromToml('[auth.email]\nenable_confirmations = true\n').enableConfirmations).toBe(
      true,
    );
  });
});

describe('PKCE (GoTrue api/pkce.go, api/token.go)', () => {
  function exchange(code: string | null, verifier: string) {
    return post(confirming, '/token?grant_type=pkce', { auth_code: code, code_verifier: verifier });
  }

  async function recoveryCode(email: string, challenge: string) {
    const asked = await post(confirming, '/recover', {
      email,
      code_challenge: challenge,
      code_challenge_method: 's256',
    });
    expect(asked).toEqual({ status: 200, body: {} });
    const link = confirming.mailbox.list(email).at(-1)?.links[0] ?? '';
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_/);
    const followed = await follow(link);
    expect(followed.fragment.get('access_token')).toBeNull();
    return { link, code: followed.query.get('code') ?? '' };
  }

  it('a recovery link redirects with ?code=, exchanged once with the verifier for a recovery session', async () => {
    const person = await signUpNewPerson();
    const { verifier, challenge } = pkcePair();
    const { code } = await recoveryCode(person.email, challenge);
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const exchanged = await exchange(code, verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user).toMatchObject({ id: person.id });
    expect(amrOf(String(exchanged.body.access_token))).toEqual([
      { method: 'recovery', timestamp: expect.any(Number) },
    ]);
    const again = await exchange(code, verifier);
    expect(again).toEqual({
      status: 404,
      body: { code: 'flow_state_not_found', message: 'invalid flow state, no valid flow state found' },
    });
  });

  it('refuses a wrong verifier with bad_code_verifier and still accepts the right one', async () => {
    const person = await signUpNewPerson();
    const { verifier, challenge } = pkcePair();
    const { code } = await recoveryCode(person.email, challenge);
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong).toEqual({
      status: 400,
      body: {
        code: 'bad_code_verifier',
        message: 'code challenge does not match previously saved code verifier',
      },
    });
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it('refuses a code whose flow began more than the flow-state expiry (300 s) ago', async () => {
    const person = await signUpNewPerson();
    const { verifier, challenge } = pkcePair();
    const { code } = await recoveryCode(person.email, challenge);
    await db.query(
      `update auth.flow_state set created_at = now() - interval '301 seconds' where auth_code = $1`,
      [code],
    );
    const late = await exchange(code, verifier);
    expect(late).toEqual({
      status: 400,
      body: { code: 'flow_state_expired', message: 'invalid flow state, flow state has expired' },
    });
  });

  it('a used PKCE link redirects with the error in the query as well as the fragment', async () => {
    const person = await signUpNewPerson();
    const { link } = await recoveryCode(person.email, pkcePair().challenge);
    const { query, fragment } = await follow(link);
    expect(query.get('code')).toBeNull();
    expect(query.get('error_code')).toBe('otp_expired');
    expect(fragment.get('error_code')).toBe('otp_expired');
  });

  it('a sign-up confirmation link with a code challenge signs in through the code exchange', async () => {
    const email = newEmail('pkce-signup');
    const { verifier, challenge } = pkcePair();
    const signedUp = await post(confirming, '/signup', {
      email,
      password: 'long-enough-1',
      code_challenge: challenge,
      code_challenge_method: 's256',
    });
    expect(signedUp.status).toBe(200);
    expect(signedUp.body).not.toHaveProperty('access_token');
    const { query } = await follow(confirming.mailbox.list(email)[0]?.links[0] ?? '');
    const exchanged = await exchange(query.get('code'), verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user).toMatchObject({ email });
    expect(amrOf(String(exchanged.body.access_token))).toEqual([
      { method: 'email/signup', timestamp: expect.any(Number) },
    ]);
  });

  it('refuses a malformed code challenge as GoTrue does, mailing nothing', async () => {
    const person = await signUpNewPerson();
    expect(
      await post(confirming, '/recover', {
        email: person.email,
        code_challenge: 'short',
        code_challenge_method: 's256',
      }),
    ).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'code challenge has to be between 43 and 128 characters' },
    });
    expect(
      await post(confirming, '/recover', { email: person.email, code_challenge: pkcePair().challenge }),
    ).toEqual({
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'PKCE flow requires code_challenge_method and code_challenge',
      },
    });
    expect(confirming.mailbox.list(person.email)).toEqual([]);
  });
});
