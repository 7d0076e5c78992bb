import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signInAdmin, signUpNewPerson, type Person } from '../support/api';
import { addBuyRequest, addDeposit, connect, createUser, onlyRow } from '../support/db';

let pool: pg.Pool;
let admin: Person;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await signInAdmin();
});

afterAll(async () => {
  await pool.end();
});

async function deleteUser(accessToken: string | undefined, body: unknown) {
  const response = await callApi('/functions/v1/admin-delete-user', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function rowsOf(userId: string) {
  const { rows } = await pool.query<Record<string, string>>(
    `select (select count(*) from auth.users where id = $1) as auth_users,
            (select count(*) from public.profiles where id = $1) as profiles,
            (select count(*) from public.transactions where user_id = $1) as transactions,
            (select count(*) from public.buy_requests where user_id = $1) as buy_requests,
            (select count(*) from public.withdraw_requests where user_id = $1) as withdraw_requests`,
    [userId],
  );
  return Object.fromEntries(Object.entries(onlyRow(rows)).map(([table, count]) => [table, Number(count)]));
}

describe('an admin deletes a user through admin-delete-user', () => {
  it('refuses a person who still holds money or has open requests, and they keep everything', async () => {
    const person = await signUpNewPerson('Holding Person');
    await addDeposit(pool, person.id, 500);
    await addBuyRequest(pool, person.id, 50);
    const before = await rowsOf(person.id);

    expect(await deleteUser(admin.accessToken, { userId: person.id })).toEqual({
      status: 400,
      body: { error: 'This person still holds 500 USD: pay it out before closing the account' },
    });
    expect(await rowsOf(person.id)).toEqual(before);
  });

  it('closes the account of a person with nothing left: no sign-in, their books kept, recorded who did it', async () => {
    const person = await signUpNewPerson('Leaving Person');
    const withdrawal = await person.client.functions.invoke('withdrawals', {
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        amount: 25,
        withdrawMethod: 'wallet',
        details: { cryptoType: 'BTC', walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      },
    });
    // Nothing to withdraw: refused, and nothing is open.
    expect(withdrawal.error).not.toBeNull();
    await addDeposit(pool, person.id, 5);
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status) values ($1, 'withdraw', 5, 'complete')`,
      [person.id],
    );

    const answer = await deleteUser(admin.accessToken, { userId: person.id });

    expect(answer).toEqual({ status: 200, body: { deleted: person.id } });
    expect(await rowsOf(person.id)).toEqual({
      auth_users: 0,
      profiles: 1,
      transactions: 2,
      buy_requests: 0,
      withdraw_requests: 0,
    });
    const signIn = await person.client.auth.signInWithPassword({
      email: person.email,
      password: person.password,
    });
    expect(signIn.error?.message).toMatch(/invalid login credentials/i);
    const { data: audit } = await admin.client
      .from('audit_log_with_actor')
      .select('action, target_id, details, actor_id, actor_email')
      .eq('target_id', person.id)
      .eq('action', 'user.delete');
    expect(audit).toEqual([
      {
        action: 'user.delete',
        target_id: person.id,
        actor_id: admin.id,
        actor_email: admin.email,
        details: { role: 'user' },
      },
    ]);
  });

  it('refuses a user (403) and a visitor (401), and the target keeps everything', async () => {
    const target = await createUser(pool, { deposit: 100 });
    const attacker = await signUpNewPerson('Attacker');

    expect(await deleteUser(attacker.accessToken, { userId: target.id })).toEqual({
      status: 403,
      body: { error: 'Only admins can delete users' },
    });
    // The platform refuses a call without a session before the function runs (verify_jwt).
    expect((await deleteUser(undefined, { userId: target.id })).status).toBe(401);
    expect(await rowsOf(target.id)).toMatchObject({ auth_users: 1, profiles: 1, transactions: 1 });
  });

  it('refuses an admin deleting their own account, an unknown id and a malformed one', async () => {
    expect(await deleteUser(admin.accessToken, { userId: admin.id })).toEqual({
      status: 400,
      body: { error: 'You cannot delete your own account' },
    });
    expect(await rowsOf(admin.id)).toMatchObject({ auth_users: 1, profiles: 1 });
    expect(await deleteUser(admin.accessToken, { userId: '00000000-0000-4000-8000-000000000000' })).toEqual({
      status: 404,
      body: { error: 'User not found' },
    });
    expect(await deleteUser(admin.accessToken, { userId: "x' or 1=1" })).toEqual({
      status: 400,
      body: { error: 'userId must be a user id' },
    });
  });
});

describe('the admin list views follow the tables’ access rules', () => {
  it('shows an admin everyone with the available balance, and a user only themselves', async () => {
    const person = await signUpNewPerson('Balance Person');
    await addDeposit(pool, person.id, 300);
    const withdrawal = await person.client.functions.invoke('withdrawals', {
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        amount: 120,
        withdrawMethod: 'wallet',
        details: { cryptoType: 'ETH', walletAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      },
    });
    expect(withdrawal.error).toBeNull();

    const { data: seenByAdmin } = await admin.client
      .from('users_with_balance')
      .select('id, full_name, email, role, available')
      .eq('id', person.id);
    expect(seenByAdmin).toEqual([
      { id: person.id, full_name: 'Balance Person', email: person.email, role: 'user', available: 180 },
    ]);
    const { data: seenByPerson } = await person.client.from('users_with_balance').select('id');
    expect(seenByPerson).toEqual([{ id: person.id }]);
  });

  it('keeps the audit log from users', async () => {
    const person = await signUpNewPerson('Curious Person');
    const { data, error } = await person.client.from('audit_log_with_actor').select('id').limit(5);
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });
});
