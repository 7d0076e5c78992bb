import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, createUser, queryAs, signedIn, type CreatedUser } from '../support/db';

/**
 * A change to a protection the person set is e-mailed to them at once (send-security-emails adds the "this
 * wasn't me" link): the address book's waiting period and the unfreeze delay, as asking to switch the
 * allowlist off is (tests/stack/payout-address-book.test.ts). Setting the same value again sends nothing.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

async function mailsOf(person: CreatedUser) {
  const { rows } = await pool.query<{ subject: string; body: string; waits: boolean }>(
    `select subject, body, not_before is not null as waits from private.security_emails where user_id = $1
     order by created_at, subject`,
    [person.id],
  );
  return rows;
}

const as = (person: CreatedUser, sql: string) => queryAs(pool, signedIn(person.id), sql);

describe('a protection setting changed is e-mailed', () => {
  it('the address book wait: longer, then shorter with when the longer one still applies', async () => {
    const person = await createUser(pool);
    await as(person, 'select public.set_payout_wait_hours(168)');
    await as(person, 'select public.set_payout_wait_hours(168)');
    await as(person, 'select public.set_payout_wait_hours(72)');

    const mails = await mailsOf(person);
    expect(mails.map((mail) => [mail.subject, mail.waits])).toEqual([
      ['Address book waiting period changed', false],
      ['Address book waiting period changed', false],
    ]);
    expect(mails[0]?.body).toMatch(
      /^You changed at .+ how long a new destination in your address book waits before it can receive money: from 2 days to 7 days\.$/,
    );
    expect(mails[1]?.body).toMatch(/from 7 days to 3 days\. Until .+, new destinations still wait 7 days\.$/);
  });

  it('the unfreeze delay, from the default and again', async () => {
    const person = await createUser(pool);
    await as(person, 'select public.set_unfreeze_delay_hours(24)');
    await as(person, 'select public.set_unfreeze_delay_hours(240)');
    await as(person, 'select public.set_unfreeze_delay_hours(48)');

    const mails = await mailsOf(person);
    expect(mails.map((mail) => mail.subject)).toEqual(['Unfreeze delay changed', 'Unfreeze delay changed']);
    expect(mails[0]?.body).toMatch(
      /^You changed at .+ how long your account stays frozen after you ask to unfreeze it: from 1 day to 10 days\.$/,
    );
    expect(mails[1]?.body).toMatch(/from 10 days to 2 days\.$/);
  });
});
