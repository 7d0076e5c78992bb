import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { apiClient, mailTo, postAuth, serviceClient, signUpNewPerson, type Person } from '../support/api';
import { testGatewayOptions } from '../support/api';

/**
 * Changing one's e-mail address as hosted Auth does it: supabase/auth internal/api/user.go `UserUpdate`,
 * mail.go `sendEmailChange`, verify.go `emailChangeVerify` and templatemailer.go `EmailChangeMail`. With
 * GoTrue's default `MAILER_SECURE_EMAIL_CHANGE_ENABLED` (`double_confirm_changes = true`) both addresses
 * get a link; with confirmations on (hosted's default) the change waits for both.
 */
const generous = { limit: 100_000, windowMs: 60_000 };
const message = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
let folder: string;
let confirming: RunningGateway;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'coinvault-email-change-'));
  await writeFile(
    path.join(folder, 'change.html'),
    '<p>to {{ .SendingTo }} code {{ .Token }} new {{ .NewEmail }}</p><a href="{{ .ConfirmationURL }}">go</a>',
  );
  confirming = await startGateway(
    testGatewayOptions({
      rateLimits: { signInSignUps: generous, verify: generous, emailSent: generous },
      project: {
        enableConfirmations: true,
        mailTemplates: { email_change: { contentPath: path.join(folder, 'change.html') } },
      },
    }),
  );
});
afterAll(async () => {
  await confirming.stop();
  await rm(folder, { recursive: true, force: true });
});

const newEmail = () => `changed-${randomUUID()}@example.com`;

/** PUT /user {email} on `gateway` as supabase-js `updateUser` sends it. */
function askChange(gateway: RunningGateway, person: Person, email: string) {
  return fetch(`${gateway.url}/auth/v1/user`, {
    method: 'PUT',
    headers: {
      apikey: inject('anonKey'),
      authorization: `Bearer ${person.accessToken}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    body: JSON.stringify({ email }),
  });
}

async function follow(link: string | undefined) {
  const response = await fetch(link ?? '', { redirect: 'manual' });
  return new URLSearchParams(new URL(response.headers.get('location') ?? '').hash.slice(1));
}

async function currentEmail(id: string) {
  const { data } = await serviceClient().auth.admin.getUserById(id);
  return data.user?.email;
}

describe('with confirmations on: both addresses confirm the change', () => {
  it('mails a link to the new and the current address; the first is accepted, the second makes the change', async () => {
    const person = await signUpNewPerson();
    const target = newEmail();
    const asked = await askChange(confirming, person, target);
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({
      email: person.email,
      new_email: target,
      email_change_sent_at: expect.any(String),
    });
    const [toNew] = confirming.mailbox.list(target);
    const [toCurrent] = confirming.mailbox.list(person.email);
    expect(toNew?.html).toContain(`to ${target}`);
    expect(toCurrent?.html).toContain(`to ${person.email}`);
    expect(toCurrent?.links[0]).toMatch(/type=email_change/);

    expect(Object.fromEntries(await follow(toNew?.links[0]))).toEqual({ message });
    expect(await currentEmail(person.id)).toBe(person.email);
    const done = await follow(toCurrent?.links[0]);
    expect(done.get('type')).toBe('email_change');
    const { data } = await apiClient().auth.getUser(done.get('access_token') ?? '');
    expect(data.user).toMatchObject({ email: target, identities: [{ identity_data: { email: target } }] });
    expect(data.user).not.toHaveProperty('new_email');

    const byNew = await apiClient().auth.signInWithPassword({ email: target, password: person.password });
    expect(byNew.error).toBeNull();
    const byOld = await apiClient().auth.signInWithPassword({
      email: person.email,
      password: person.password,
    });
    expect(byOld.error?.code).toBe('invalid_credentials');
  });

  it('takes each address’s six-digit code through verifyOtp: {msg} first, then the session', async () => {
    const person = await signUpNewPerson();
    const target = newEmail();
    expect((await askChange(confirming, person, target)).status).toBe(200);
    const codeFor = (address: string) =>
      /code (\d{6})/.exec(confirming.mailbox.list(address).at(-1)?.html ?? '')?.[1] ?? '';
    const verify = (email: string, token: string) =>
      postAuth(confirming.url, '/verify', { type: 'email_change', email, token });
    // The new address's code does not work for the current address.
    expect(await verify(person.email, codeFor(target))).toMatchObject({
      status: 403,
      body: { code: 'otp_expired' },
    });
    expect(await verify(target, codeFor(target))).toEqual({
      status: 200,
      body: { msg: message, code: '200' },
    });
    expect(await verify(person.email, codeFor(person.email))).toMatchObject({
      status: 200,
      body: { user: { id: person.id, email: target } },
    });
  });

  it('refuses a change asked again within max_frequency (429), and a taken address (422 email_exists)', async () => {
    const person = await signUpNewPerson();
    expect((await askChange(confirming, person, newEmail())).status).toBe(200);
    const again = await askChange(confirming, person, newEmail());
    expect(again.status).toBe(429);
    expect(await again.json()).toMatchObject({ code: 'over_email_send_rate_limit' });
    const other = await signUpNewPerson();
    const taken = await askChange(confirming, other, person.email);
    expect(taken.status).toBe(422);
    expect(await taken.json()).toMatchObject({ code: 'email_exists' });
    expect(confirming.mailbox.list(other.email)).toEqual([]);
  });
});

describe('with confirmations off (the project’s setting): either link makes the change', () => {
  it('changes the address through the link mailed to the new address alone', async () => {
    const person = await signUpNewPerson();
    const target = newEmail();
    const { data, error } = await person.client.auth.updateUser({ email: target });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: person.email, new_email: target });
    expect((await mailTo(person.email)).at(-1)?.subject).toBe('Confirm your new email address');
    const done = await follow((await mailTo(target)).at(-1)?.links[0]);
    expect(done.get('type')).toBe('email_change');
    expect(await currentEmail(person.id)).toBe(target);
  });

  it('redeems a generated email_change_new link (admin generateLink)', async () => {
    const person = await signUpNewPerson();
    const target = newEmail();
    const { data } = await serviceClient().auth.admin.generateLink({
      type: 'email_change_new',
      email: person.email,
      newEmail: target,
    });
    const done = await follow(data.properties?.action_link);
    expect(done.get('type')).toBe('email_change');
    expect(await currentEmail(person.id)).toBe(target);
  });
});
