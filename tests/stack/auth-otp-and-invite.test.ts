import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import {
  apiClient,
  mailTo,
  postAuth,
  serviceClient,
  signUpNewPerson,
  testGatewayOptions,
} from '../support/api';
import { createNodeClient } from '../support/node-client';

/**
 * Sign-in by mailed link or code and invitations, as hosted Auth answers them: supabase/auth
 * internal/api/otp.go, magic_link.go, invite.go, mail.go (`sendMagicLink`, `sendInvite`), verify.go.
 */
const apiUrl = () => inject('apiUrl');
const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
const generous = { limit: 100_000, windowMs: 60_000 };
let folder: string;
/** Confirmations on (hosted's default), with a magic-link template that shows the six-digit code. */
let confirming: RunningGateway;
/** Confirmations off (the project's setting), with the same template. */
let autoconfirming: RunningGateway;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'coinvault-otp-'));
  await writeFile(
    path.join(folder, 'code.html'),
    '<p>code {{ .Token }}</p><a href="{{ .ConfirmationURL }}">in</a>',
  );
  const mailTemplates = { magic_link: { contentPath: path.join(folder, 'code.html') } };
  const rateLimits = { signInSignUps: generous, verify: generous, emailSent: generous };
  [confirming, autoconfirming] = await Promise.all([
    startGateway(testGatewayOptions({ rateLimits, project: { enableConfirmations: true, mailTemplates } })),
    startGateway(testGatewayOptions({ rateLimits, project: { enableConfirmations: false, mailTemplates } })),
  ]);
});
afterAll(async () => {
  await Promise.all([confirming.stop(), autoconfirming.stop(), db.end()]);
  await rm(folder, { recursive: true, force: true });
});

const newEmail = (name: string) => `${name}-${randomUUID()}@example.com`;
const codeIn = (html: string | undefined) => /code (\d{6})/.exec(html ?? '')?.[1] ?? '';

async function follow(link: string | undefined) {
  const response = await fetch(link ?? '', { redirect: 'manual' });
  const location = new URL(response.headers.get('location') ?? '');
  return { query: location.searchParams, fragment: new URLSearchParams(location.hash.slice(1)) };
}

describe('signInWithOtp by e-mail (POST /otp, api/otp.go → api/magic_link.go)', () => {
  it('mails a confirmed person a magic link that signs them in, once', async () => {
    const person = await signUpNewPerson();
    expect((await apiClient().auth.signInWithOtp({ email: person.email })).error).toBeNull();
    const mail = (await mailTo(person.email)).at(-1);
    expect(mail?.subject).toBe('Your sign-in link');
    expect(mail?.links[0]).toMatch(/\/auth\/v1\/verify\?token=[0-9a-f]{56}&type=magiclink&redirect_to=/);
    const signedIn = await follow(mail?.links[0]);
    expect(signedIn.fragment.get('type')).toBe('magiclink');
    const { data } = await apiClient().auth.getUser(signedIn.fragment.get('access_token') ?? '');
    expect(data.user?.id).toBe(person.id);
    expect((await follow(mail?.links[0])).fragment.get('error_code')).toBe('otp_expired');
  });

  it('signs a new address up and mails its code, which verifyOtp takes with type email (confirmations off)', async () => {
    const email = newEmail('otp-new');
    const client = createNodeClient(autoconfirming.url, inject('anonKey'));
    const asked = await client.auth.signInWithOtp({ email, options: { data: { full_name: 'Ada' } } });
    expect(asked).toMatchObject({ data: { user: null, session: null }, error: null });
    const code = codeIn(autoconfirming.mailbox.list(email).at(-1)?.html);
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { full_name: 'Ada', email_verified: true } });
    expect((await client.auth.verifyOtp({ email, token: code, type: 'email' })).error?.code).toBe(
      'otp_expired',
    );
  });

  it('mails a new address the confirmation link instead while confirmations are on', async () => {
    const email = newEmail('otp-confirm');
    const client = createNodeClient(confirming.url, inject('anonKey'));
    expect((await client.auth.signInWithOtp({ email })).error).toBeNull();
    const [mail] = confirming.mailbox.list(email);
    expect(mail?.links[0]).toMatch(/type=signup/);
    const signedIn = await follow(mail?.links[0]);
    expect(signedIn.fragment.get('access_token')).toEqual(expect.any(String));
  });

  it('refuses an unknown address with create_user false: 422 otp_disabled, no user, no mail', async () => {
    const email = newEmail('otp-unknown');
    const { error } = await apiClient().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    });
    const { rowCount } = await db.query('select from auth.users where email = $1', [email]);
    expect(rowCount).toBe(0);
    expect(await mailTo(email)).toEqual([]);
  });

  it('ends a PKCE magic link in ?code=, exchanged once with its verifier', async () => {
    const person = await signUpNewPerson();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const asked = await postAuth(apiUrl(), '/otp', {
      email: person.email,
      code_challenge: challenge,
      code_challenge_method: 's256',
    });
    expect(asked).toEqual({ status: 200, body: {} });
    const link = (await mailTo(person.email)).at(-1)?.links[0];
    expect(link).toMatch(/token=pkce_/);
    const code = (await follow(link)).query.get('code');
    const exchange = () =>
      postAuth(apiUrl(), '/token?grant_type=pkce', { auth_code: code, code_verifier: verifier });
    expect(await exchange()).toMatchObject({ status: 200, body: { user: { id: person.id } } });
    expect(await exchange()).toMatchObject({ status: 404, body: { code: 'flow_state_not_found' } });
  });

  it('refuses a phone number, both addresses, and neither, as GoTrue words it', async () => {
    expect(await postAuth(apiUrl(), '/otp', { phone: '+15555550100' })).toEqual({
      status: 400,
      body: { code: 'phone_provider_disabled', message: 'Unsupported phone provider' },
    });
    expect(await postAuth(apiUrl(), '/otp', { email: newEmail('both'), phone: '+15555550100' })).toEqual({
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'Only an email address or phone number should be provided',
      },
    });
    expect(await postAuth(apiUrl(), '/otp', {})).toEqual({
      status: 400,
      body: { code: 'validation_failed', message: 'One of email or phone must be set' },
    });
  });
});

describe('POST /magiclink (api/magic_link.go)', () => {
  it('answers {} and mails the magic link; an empty address is 422', async () => {
    const person = await signUpNewPerson();
    expect(await postAuth(apiUrl(), '/magiclink', { email: person.email })).toEqual({
      status: 200,
      body: {},
    });
    expect((await mailTo(person.email)).at(-1)?.links[0]).toMatch(/type=magiclink/);
    expect(await postAuth(apiUrl(), '/magiclink', {})).toEqual({
      status: 422,
      body: { code: 'validation_failed', message: 'Password recovery requires an email' },
    });
  });
});

describe('inviteUserByEmail (POST /invite, api/invite.go)', () => {
  it('makes the user, mails the invitation, and its link signs them in to set a password', async () => {
    const email = newEmail('invited');
    const { data, error } = await serviceClient().auth.admin.inviteUserByEmail(email, {
      data: { full_name: 'Grace' },
      redirectTo: 'http://localhost:5173/update-password',
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      invited_at: expect.any(String),
      confirmation_sent_at: expect.any(String),
      user_metadata: { full_name: 'Grace' },
    });
    expect(data.user).not.toHaveProperty('email_confirmed_at');
    const mail = (await mailTo(email)).at(-1);
    expect(mail?.subject).toBe("You've been invited to CoinVault");
    const signedIn = await follow(mail?.links[0]);
    expect(signedIn.fragment.get('type')).toBe('invite');
    const invited = apiClient();
    await invited.auth.setSession({
      access_token: signedIn.fragment.get('access_token') ?? '',
      refresh_token: signedIn.fragment.get('refresh_token') ?? '',
    });
    expect((await invited.auth.updateUser({ password: 'chosen-password-1' })).error).toBeNull();
    const signIn = await apiClient().auth.signInWithPassword({ email, password: 'chosen-password-1' });
    expect(signIn.data.user?.email_confirmed_at).toEqual(expect.any(String));
  });

  it('refuses the anon key (403 not_admin) and a confirmed address (422 email_exists)', async () => {
    const refused = await apiClient().auth.admin.inviteUserByEmail(newEmail('not-admin'));
    expect(refused.error).toMatchObject({ status: 403, code: 'not_admin' });
    const person = await signUpNewPerson();
    const taken = await serviceClient().auth.admin.inviteUserByEmail(person.email);
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
  });
});
