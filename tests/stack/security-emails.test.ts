import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, callApi, mailTo, signIn, signUpNewPerson } from '../support/api';
import { changePassword, connect, createUser } from '../support/db';

/**
 * The send-security-emails function, the one seam for the app's own mail: it drains the outbox through the
 * provider (the local stack's mailbox here), with the "this wasn't me" link, and marks each e-mail sent.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

function sendSecurityEmails(token: string) {
  return callApi('/functions/v1/send-security-emails', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
}

async function unsentTo(email: string) {
  const { rows } = await pool.query<{ count: number }>(
    'select count(*)::int as count from private.security_emails where recipient = $1 and sent_at is null',
    [email],
  );
  return rows[0]?.count;
}

describe('send-security-emails', () => {
  it("sends a changed password's e-mail once, with a link that locks withdrawals", async () => {
    const person = await signUpNewPerson();
    const { error } = await person.client.auth.updateUser({
      password: 'a-new-pass-789',
      current_password: person.password,
    });
    expect(error).toBeNull();
    expect(await unsentTo(person.email)).toBe(1);

    const response = await sendSecurityEmails(inject('serviceRoleKey'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sent: expect.any(Number), failed: 0 });
    expect(await unsentTo(person.email)).toBe(0);

    const mails = await mailTo(person.email);
    const mail = mails.find((message) => message.subject === 'Password changed');
    expect(mail?.text).toContain('Password changed on your account at');
    expect(mail?.text).toContain("If this wasn't you, lock your withdrawals at once:");
    const link = new URL(mail?.links[0] ?? '');
    expect(link.pathname).toBe('/not-me');
    const { rows } = await pool.query('select 1 from private.security_emails where not_me_token = $1', [
      link.searchParams.get('token'),
    ]);
    expect(rows).toHaveLength(1);

    // A second run finds nothing new for this person: nothing is sent twice.
    await sendSecurityEmails(inject('serviceRoleKey'));
    expect(
      (await mailTo(person.email)).filter((message) => message.subject === 'Password changed'),
    ).toHaveLength(1);
  });

  it("e-mails a new sign-in, not sign-up's own session nor a refresh, with a link that locks withdrawals", async () => {
    const person = await signUpNewPerson();
    const { error: refreshError } = await person.client.auth.refreshSession();
    expect(refreshError).toBeNull();
    await sendSecurityEmails(inject('serviceRoleKey'));
    expect(await mailTo(person.email)).toEqual([]);

    await signIn(person.email, person.password);
    await sendSecurityEmails(inject('serviceRoleKey'));
    const mails = await mailTo(person.email);
    expect(mails.map(({ subject }) => subject)).toEqual(['New sign-in']);
    expect(mails[0]?.text).toMatch(/^New sign-in to your account at .+ UTC from 127\.0\.0\.1\./);
    expect(mails[0]?.text).toContain("If this wasn't you, lock your withdrawals at once:");

    const link = new URL(mails[0]?.links[0] ?? '');
    expect(link.pathname).toBe('/not-me');
    const { error } = await apiClient().rpc('report_not_me', { token: link.searchParams.get('token') ?? '' });
    expect(error).toBeNull();
    const { rows } = await pool.query('select 1 from private.withdrawal_locks where user_id = $1', [
      person.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('sends each e-mail once when two senders run at the same moment', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => createUser(pool)));
    for (const person of people) await changePassword(pool, person.id);

    const answers = await Promise.all([
      sendSecurityEmails(inject('serviceRoleKey')),
      sendSecurityEmails(inject('serviceRoleKey')),
    ]);
    expect(answers.map(({ status }) => status)).toEqual([200, 200]);
    for (const person of people) {
      expect((await mailTo(person.email)).map(({ subject }) => subject)).toEqual(['Password changed']);
      expect(await unsentTo(person.email)).toBe(0);
    }
  });

  it('drains a backlog larger than one claim (20 e-mails) in a single run', async () => {
    const people = await Promise.all(Array.from({ length: 45 }, () => createUser(pool)));
    for (const person of people) await changePassword(pool, person.id);

    const response = await sendSecurityEmails(inject('serviceRoleKey'));
    expect(response.status).toBe(200);
    for (const person of people) expect(await unsentTo(person.email)).toBe(0);
  });

  it("the local provider drops a repeat with the same Idempotency-Key, as Resend's API does for 24 hours", async () => {
    const to = `${randomUUID()}@example.com`;
    const post = () =>
      callApi('/mail-provider/emails', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `security-email/${to}` },
        body: JSON.stringify({ to, subject: 'Hello', text: 'Hi' }),
      });
    const first = (await (await post()).json()) as { id: string };
    const repeat = (await (await post()).json()) as { id: string };
    expect(repeat.id).toBe(first.id);
    expect(await mailTo(to)).toHaveLength(1);
  });

  it('answers only the service role (the scheduler), not a signed-in person or a visitor', async () => {
    const person = await signUpNewPerson();
    for (const token of [person.accessToken, inject('anonKey')]) {
      const response = await sendSecurityEmails(token);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Only the scheduler sends security e-mails' });
    }
  });

  it("the local provider refuses a mail without a recipient, as a provider's API would", async () => {
    const response = await callApi('/mail-provider/emails', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: 'Hello', text: 'Hi' }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ message: '`to`, `subject` and `text` are required' });
  });
});
