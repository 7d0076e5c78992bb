import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, sendSecurityEmails, mailTo, signIn, type Person } from '../support/api';
import { connect } from '../support/db';
import { moveBack } from '../support/time-travel';
import { fundedPerson, postJson, uniqueBank } from '../support/withdraw-stack';

/**
 * The freeze through the API as a person meets it: the button ends their other sessions, the withdrawals
 * function refuses, Auth refuses a new password, and an unfreeze is e-mailed when it starts and when it ends.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

const subjectsTo = async (person: Person) => (await mailTo(person.email)).map((mail) => mail.subject);

describe('freezing from the account page', () => {
  it('signs out the other sessions, keeps this one, and the withdrawals function refuses', async () => {
    const person = await fundedPerson(pool, 300);
    const elsewhere = await signIn(person.email, person.password);
    expect((await person.client.rpc('freeze_my_account')).error).toBeNull();

    const refreshed = await elsewhere.client.auth.refreshSession();
    expect(refreshed.error?.message).toMatch(/Refresh Token/i);
    expect((await person.client.rpc('list_my_sessions')).data).toHaveLength(1);

    const withdrawal = await postJson('withdrawals', person, {
      amount: 20,
      withdrawMethod: 'bank',
      details: uniqueBank(),
    });
    expect(withdrawal).toMatchObject({
      status: 400,
      body: {
        error: 'Your account is frozen: no money leaves and nothing is bought or sold until you unfreeze it.',
      },
    });
  });

  it('keeps the password: Auth refuses to change it, and the old one still signs in', async () => {
    const person = await fundedPerson(pool, 300);
    await person.client.rpc('freeze_my_account');
    const { error } = await person.client.auth.updateUser({ password: 'thief-pass-999' });
    expect(error).not.toBeNull();
    expect((await signIn(person.email, person.password)).id).toBe(person.id);
  });
});

describe('unfreezing', () => {
  it('is e-mailed when it starts, and at the end of the delay, not before', async () => {
    const person = await fundedPerson(pool, 300);
    await person.client.rpc('freeze_my_account');
    const asked = await person.client.rpc('ask_to_unfreeze', { password: person.password });
    expect(asked.error).toBeNull();
    expect((await sendSecurityEmails()).status).toBe(200);
    // The start's mail, sent by this run, is the witness that the end's was not due yet.
    expect(await subjectsTo(person)).toEqual(
      expect.arrayContaining(['Account frozen', 'Unfreezing your account']),
    );
    expect(await subjectsTo(person)).not.toContain('Account unfrozen');

    await moveBack(
      pool,
      `update private.security_emails set not_before = now() where user_id = $1 and subject = 'Account unfrozen'`,
      [person.id],
    );
    await moveBack(pool, 'update public.account_freezes set unfreeze_at = now() where user_id = $1', [
      person.id,
    ]);
    expect((await sendSecurityEmails()).status).toBe(200);
    expect(await subjectsTo(person)).toContain('Account unfrozen');
    const withdrawal = await postJson('withdrawals', person, {
      amount: 20,
      withdrawMethod: 'bank',
      details: uniqueBank(),
    });
    expect(withdrawal.status).toBe(201);
  });
});

describe('the "this wasn\'t me" link', () => {
  it('freezes the account and signs out every session', async () => {
    const person = await fundedPerson(pool, 300);
    const elsewhere = await signIn(person.email, person.password);
    const { rows } = await pool.query<{ token: string }>(
      `select not_me_token as token from private.security_emails where user_id = $1 order by created_at desc limit 1`,
      [person.id],
    );
    const token = rows[0]?.token;
    expect(token).toBeDefined();
    const visitor = await callApi('/rest/v1/rpc/report_not_me', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(visitor.status).toBeLessThan(300);
    for (const session of [person, elsewhere]) {
      expect((await session.client.auth.refreshSession()).error?.message).toMatch(/Refresh Token/i);
    }
    const { rows: frozen } = await pool.query(
      'select frozen_by from public.account_freezes where user_id = $1',
      [person.id],
    );
    expect(frozen).toEqual([{ frozen_by: 'not_me_link' }]);
  });
});
