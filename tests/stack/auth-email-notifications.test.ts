import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { apiClient, mailTo, signUpNewPerson, testGatewayOptions, type Person } from '../support/api';
import { createNodeClient } from '../support/node-client';

/**
 * GoTrue's account-change notifications, `[auth.email.notification.<kind>]` (off by default): supabase/auth
 * internal/api/user.go (a new password), verify.go `emailChangeVerify` (the old address is told),
 * mailer/templatemailer/templatemailer.go (`PasswordChangedNotificationMail`, `EmailChangedNotificationMail`).
 */
const generous = { limit: 100_000, windowMs: 60_000 };
let notifying: RunningGateway;

beforeAll(async () => {
  notifying = await startGateway(
    testGatewayOptions({
      rateLimits: { signInSignUps: generous, verify: generous, emailSent: generous },
      project: {
        mailNotifications: {
          password_changed: { enabled: true },
          email_changed: { enabled: true, subject: 'Now {{ .Email }}, was {{ .OldEmail }}' },
        },
      },
    }),
  );
});
afterAll(() => notifying.stop());

/** The person's client on the notifying gateway, signed in with their password. */
async function onNotifying(person: Person) {
  const client = createNodeClient(notifying.url, inject('anonKey'));
  const { error } = await client.auth.signInWithPassword({ email: person.email, password: person.password });
  expect(error).toBeNull();
  return client;
}

describe('[auth.email.notification.password_changed] enabled', () => {
  it("tells the person their password was changed, in GoTrue's default words", async () => {
    const person = await signUpNewPerson();
    const client = await onNotifying(person);
    const changed = await client.auth.updateUser({
      password: 'a-new-password-1',
      current_password: person.password,
    });
    expect(changed.error).toBeNull();
    const [mail] = notifying.mailbox.list(person.email);
    expect(mail?.subject).toBe('Your password was changed');
    expect(mail?.html).toContain('The password for your account was recently changed.');
  });
});

describe('[auth.email.notification.email_changed] enabled', () => {
  it('tells the old address once the change is made, naming both addresses', async () => {
    const person = await signUpNewPerson();
    const client = await onNotifying(person);
    const target = `notified-${randomUUID()}@example.com`;
    expect((await client.auth.updateUser({ email: target })).error).toBeNull();
    // Confirmations off (the project's setting): the link to the new address makes the change.
    const link = notifying.mailbox.list(target)[0]?.links[0] ?? '';
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    expect(notifying.mailbox.list(person.email).map((mail) => mail.subject)).toEqual([
      'Confirm your new email address',
      `Now ${target}, was ${person.email}`,
    ]);
  });
});

describe('notifications off (GoTrue’s default, and the project’s)', () => {
  it('sends no mail for a new password: the next mail is the only one', async () => {
    const person = await signUpNewPerson();
    const changed = await person.client.auth.updateUser({
      password: 'a-new-password-1',
      current_password: person.password,
    });
    expect(changed.error).toBeNull();
    // The witness: a recovery mail asked after the change is the person's first and only mail.
    expect((await apiClient().auth.resetPasswordForEmail(person.email)).error).toBeNull();
    expect((await mailTo(person.email)).map((mail) => mail.subject)).toEqual(['Reset your password']);
  });
});
