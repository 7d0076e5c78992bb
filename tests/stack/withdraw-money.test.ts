import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInAdmin, type Person } from '../support/api';
import { connect, walletOf } from '../support/db';
import { fundedPerson, postJson, uniqueCard } from '../support/withdraw-stack';
import { setWithdrawRequestStatus } from '../support/keyed-calls';

let pool: pg.Pool;
let admin: Person;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await signInAdmin();
});

afterAll(async () => {
  await pool.end();
});

const withdraw = (person: Person, amount: number) =>
  postJson('withdrawals', person, { amount, withdrawMethod: 'card', details: uniqueCard() });

async function withdrawTransactions(requestId: string) {
  const { rows } = await pool.query<{ type: string; amount: string; status: string }>(
    'select type, amount, status from public.transactions where withdraw_request_id = $1',
    [requestId],
  );
  return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

describe('money held by withdraw requests', () => {
  it('lets only one of two withdrawals sent at the same instant through when together they exceed the balance', async () => {
    // A few rounds, each with a fresh person, so a lucky interleaving cannot pass the test by chance.
    for (let round = 0; round < 3; round += 1) {
      const person = await fundedPerson(pool, 1000);
      const answers = await Promise.all([withdraw(person, 700), withdraw(person, 700)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
      expect(answers.find((answer) => answer.status === 400)?.body.error).toBe(
        'Insufficient balance (including all withdraw requests)',
      );
      const wallet = await walletOf(pool, person.id);
      expect(wallet).toMatchObject({ balance: 1000, reserved: 700, available: 300 });
    }
  });

  it('counts every open request, so a second one cannot spend what the first holds', async () => {
    const person = await fundedPerson(pool, 1000);
    expect((await withdraw(person, 600)).status).toBe(201);
    const second = await withdraw(person, 400.01);
    expect(second).toEqual({
      status: 400,
      body: { error: 'Insufficient balance (including all withdraw requests)' },
    });
    expect((await withdraw(person, 400)).status).toBe(201);
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 1000, reserved: 1000, available: 0 });
  });

  it('releases the reservation of a rejected request', async () => {
    const person = await fundedPerson(pool, 1000);
    const created = await withdraw(person, 600);
    expect(await walletOf(pool, person.id)).toMatchObject({ available: 400 });

    const { error } = await setWithdrawRequestStatus(admin.client, created.body.id as string, 'rejected');
    expect(error).toBeNull();
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 1000, reserved: 0, available: 1000 });
    expect(await withdrawTransactions(created.body.id as string)).toEqual([]);
    expect((await withdraw(person, 1000)).status).toBe(201);
  });

  it('keeps a request relabelled with an admin status type reserved', async () => {
    const person = await fundedPerson(pool, 1000);
    const created = await withdraw(person, 250);
    const { error } = await setWithdrawRequestStatus(admin.client, created.body.id as string, 'processing');
    expect(error).toBeNull();
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 1000, reserved: 250, available: 750 });
  });

  it('turns an approved request into one withdraw transaction, once', async () => {
    const person = await fundedPerson(pool, 1000);
    const created = await withdraw(person, 600);
    const requestId = created.body.id as string;

    const approve = () => setWithdrawRequestStatus(admin.client, requestId, 'approved');
    expect((await approve()).error).toBeNull();
    expect(await withdrawTransactions(requestId)).toEqual([
      { type: 'withdraw', amount: 600, status: 'complete' },
    ]);
    expect(await walletOf(pool, person.id)).toMatchObject({
      balance: 400,
      reserved: 0,
      available: 400,
      ledger: 400,
    });

    // Approving again, or rejecting afterwards, moves no more money.
    expect((await approve()).error?.message).toBe('Request has already been decided');
    const reject = await setWithdrawRequestStatus(admin.client, requestId, 'rejected');
    expect(reject.error?.message).toBe('Request has already been decided');
    expect(await withdrawTransactions(requestId)).toHaveLength(1);
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 400, available: 400 });
  });

  it('does not let a person decide their own request', async () => {
    const person = await fundedPerson(pool, 1000);
    const created = await withdraw(person, 100);
    const { error } = await setWithdrawRequestStatus(person.client, created.body.id as string, 'approved');
    expect(error).not.toBeNull();
    expect(await withdrawTransactions(created.body.id as string)).toEqual([]);
  });
});
