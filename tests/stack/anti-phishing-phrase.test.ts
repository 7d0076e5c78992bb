import { describe, expect, it } from 'vitest';
import {
  apiClient,
  mailTo,
  sendSecurityEmails,
  signUpNewPerson,
  type MailMessage,
  type Person,
} from '../support/api';

/**
 * The anti-phishing phrase at the top of every e-mail CoinVault sends a person, as they read them in the
 * mailbox. The kinds: Auth's through supabase/templates/ — recovery (reset password), reauthentication (the
 * code before a password change), a sign-in link (magic link) and an e-mail change (to both addresses) — and
 * every security e-mail of send-security-emails (the phrase's own change and a changed password here; they
 * share one message builder). Auth's confirmation and invitation mails go to someone who has no account yet,
 * so no phrase (their templates carry it all the same).
 */
const phraseLine = (phrase: string) => `Your anti-phishing phrase: ${phrase}`;
const warning = 'An e-mail that claims to be from CoinVault without this phrase is not from us';

async function personWithPhrase(phrase: string): Promise<Person> {
  const person = await signUpNewPerson();
  const { error } = await person.client.rpc('set_anti_phishing_phrase', { phrase });
  expect(error).toBeNull();
  return person;
}

async function newestMail(email: string, subject: string): Promise<MailMessage> {
  const mail = (await mailTo(email)).findLast((message) => message.subject === subject);
  if (!mail) throw new Error(`no "${subject}" mail to ${email}`);
  return mail;
}

describe('Auth e-mails show the phrase first', () => {
  it('a password reset', async () => {
    const person = await personWithPhrase('purple heron');
    expect((await apiClient().auth.resetPasswordForEmail(person.email)).error).toBeNull();
    const mail = await newestMail(person.email, 'Reset your password');
    expect(mail.text.startsWith(`${phraseLine('purple heron')}\n${warning}`)).toBe(true);
    expect(mail.links.some((link) => link.includes('/auth/v1/verify?token='))).toBe(true);
  });

  it('a reauthentication code', async () => {
    const person = await personWithPhrase('quiet lantern');
    expect((await person.client.auth.reauthenticate()).error).toBeNull();
    const mail = (await mailTo(person.email)).findLast((message) =>
      message.subject.endsWith('is your verification code'),
    );
    expect(mail?.text.startsWith(phraseLine('quiet lantern'))).toBe(true);
    expect(mail?.text).toMatch(/\n\d{6}$/);
  });

  it('a sign-in link', async () => {
    const person = await personWithPhrase('amber kettle');
    expect((await apiClient().auth.signInWithOtp({ email: person.email })).error).toBeNull();
    const mail = await newestMail(person.email, 'Your sign-in link');
    expect(mail.text.startsWith(`${phraseLine('amber kettle')}\n${warning}`)).toBe(true);
  });

  it('an e-mail change, to the current address and the new one', async () => {
    const person = await personWithPhrase('silver otter');
    const newAddress = `moved-${person.email}`;
    expect((await person.client.auth.updateUser({ email: newAddress })).error).toBeNull();
    for (const address of [person.email, newAddress]) {
      const mail = await newestMail(address, 'Confirm your new email address');
      expect(mail.text.startsWith(`${phraseLine('silver otter')}\n${warning}`)).toBe(true);
    }
  });

  it('escaped, so a phrase cannot add markup to the mail', async () => {
    const person = await personWithPhrase('<a href="x">me</a>');
    expect((await apiClient().auth.resetPasswordForEmail(person.email)).error).toBeNull();
    const mail = await newestMail(person.email, 'Reset your password');
    expect(mail.html).toContain('<strong>&lt;a href=&#34;x&#34;&gt;me&lt;/a&gt;</strong>');
    expect(mail.text.startsWith(phraseLine('<a href="x">me</a>'))).toBe(true);
  });

  it('and none without a phrase', async () => {
    const person = await signUpNewPerson();
    expect((await apiClient().auth.resetPasswordForEmail(person.email)).error).toBeNull();
    const mail = await newestMail(person.email, 'Reset your password');
    expect(mail.text.startsWith('Reset your password')).toBe(true);
  });
});

describe('security e-mails show the phrase first', () => {
  it('the phrase’s own change, showing the new phrase', async () => {
    const person = await personWithPhrase('copper kettle');
    expect((await sendSecurityEmails()).status).toBe(200);
    const mail = await newestMail(person.email, 'Anti-phishing phrase changed');
    expect(mail.text.startsWith(`${phraseLine('copper kettle')}\n${warning}`)).toBe(true);
    expect(
      mail.html.startsWith(
        '<p style="border:1px solid #d4d4d8;padding:8px 12px">Your anti-phishing phrase: <strong>copper kettle</strong>',
      ),
    ).toBe(true);
  });

  it('a changed password, with the phrase as it is when the mail goes', async () => {
    const person = await personWithPhrase('first phrase');
    const { error } = await person.client.auth.updateUser({
      password: 'a-new-pass-789',
      current_password: person.password,
    });
    expect(error).toBeNull();
    expect(
      (await person.client.rpc('set_anti_phishing_phrase', { phrase: 'second phrase' })).error,
    ).toBeNull();
    expect((await sendSecurityEmails()).status).toBe(200);
    const mail = await newestMail(person.email, 'Password changed');
    expect(mail.text.startsWith(phraseLine('second phrase'))).toBe(true);
  });
});

describe('who can change it', () => {
  it('not Auth’s own metadata update: the mails keep the phrase the person set', async () => {
    const person = await personWithPhrase('the real one');
    const { error } = await person.client.auth.updateUser({
      data: { anti_phishing_phrase: 'copied by a thief' },
    });
    expect(error).toBeNull();
    expect((await apiClient().auth.resetPasswordForEmail(person.email)).error).toBeNull();
    const mail = await newestMail(person.email, 'Reset your password');
    expect(mail.text.startsWith(phraseLine('the real one'))).toBe(true);
  });
});
