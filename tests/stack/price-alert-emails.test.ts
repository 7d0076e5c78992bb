import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mailTo, sendSecurityEmails, signUpNewPerson, type MailMessage, type Person } from '../support/api';
import { addPriceSnapshot, connect } from '../support/db';

/**
 * A fired price alert reaches the person's mailbox through the app's one e-mail seam (send-security-emails),
 * as they read it: their anti-phishing phrase first, the alert's words, the link to their alerts, and no
 * "this wasn't me" link (a price is no change to their account).
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

async function alertFiredFor(person: Person, alert: Record<string, unknown>, prices: string[]) {
  const coin = `mail${randomUUID().slice(0, 8)}`;
  await addPriceSnapshot(pool, coin, prices[0] ?? '', 26 * 60);
  const { error } = await person.client
    .from('price_alerts')
    .insert({ cryptocurrency: coin, direction: 'moves', ...alert });
  expect(error).toBeNull();
  for (const [index, price] of prices.slice(1).entries())
    await addPriceSnapshot(pool, coin, price, 10 - index);
  expect((await sendSecurityEmails()).status).toBe(200);
  return coin;
}

async function mailAbout(person: Person, coin: string): Promise<MailMessage> {
  const mails = (await mailTo(person.email)).filter((message) => message.subject.startsWith(coin));
  expect(mails).toHaveLength(1);
  return mails[0] as MailMessage;
}

describe('price alert e-mails', () => {
  it('open with the anti-phishing phrase, then say what moved, with the alerts link and no "not me" link', async () => {
    const person = await signUpNewPerson();
    expect((await person.client.rpc('set_anti_phishing_phrase', { phrase: 'amber otter' })).error).toBeNull();
    const coin = await alertFiredFor(person, { percent: 5 }, ['100', '102', '106', '107']);
    const mail = await mailAbout(person, coin);
    expect(mail.subject).toBe(`${coin} moved up 6 % in 24 h`);
    expect(
      mail.text.startsWith('Your anti-phishing phrase: amber otter\nAn e-mail that claims to be from'),
    ).toBe(true);
    expect(mail.text).toContain(`The price of ${coin} is $106, from $100 24 hours before`);
    expect(
      mail.html.startsWith('<p style="border:1px solid #d4d4d8;padding:8px 12px">Your anti-phishing phrase:'),
    ).toBe(true);
    expect(mail.links.map((link) => new URL(link).pathname)).toEqual(['/user/price-alerts']);
    expect(mail.text).not.toContain("If this wasn't you");
  });

  it('come without a phrase line for a person who has none, once per crossing', async () => {
    const person = await signUpNewPerson();
    const coin = await alertFiredFor(person, { direction: 'below', price: 90 }, ['95', '89', '88']);
    const mail = await mailAbout(person, coin);
    expect(mail.text.startsWith(`The price of ${coin} is $89, below your alert at $90.`)).toBe(true);
  });
});
