import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addPendingDeposit,
  addSellRequest,
  anon,
  changePassword,
  connect,
  createUser,
  createWithdrawRequest,
  errorOf,
  moneyStateOf,
  onlyRow,
  queryAs,
  signedIn,
  type CreatedUser,
} from '../support/db';

/**
 * One gate for money (private.money_gate): a lock ("this wasn't me") or a security hold stops money where
 * it moves, not only where a request is made, so an approval of a request already waiting is refused too,
 * with the reason for the admin, and the queues show it. Per movement: a lock stops all but deposits; a hold
 * stops money leaving (withdrawals).
 */
let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

const lockedMessage =
  'Not approved. Locked: this person reported a change they did not make ("this wasn\'t me"). Nothing but ' +
  'deposits moves until an admin ends the lock on Settings.';

/** The thief's sign-in was e-mailed to the owner, who pressed "this wasn't me" (signed out: anon). */
async function ownerReportsNotMe(person: CreatedUser) {
  await pool.query(`select private.queue_security_email($1, 'New sign-in', 'New sign-in to your account.')`, [
    person.id,
  ]);
  const { rows } = await pool.query<{ token: string }>(
    `select not_me_token as token from private.security_emails where user_id = $1 order by created_at desc limit 1`,
    [person.id],
  );
  await queryAs(pool, anon, 'select public.report_not_me($1)', [onlyRow(rows).token]);
}

async function pendingWithdrawal(person: CreatedUser, amount: number): Promise<string> {
  const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount });
  return onlyRow(rows).id;
}

const approveWithdrawal = (requestId: string, by = admin) =>
  queryAs(
    pool,
    signedIn(by.id),
    `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`,
    [requestId],
  );

async function withdrawQueueRowOf(requestId: string) {
  const { rows } = await queryAs<{ status: string; held_because: string | null }>(
    pool,
    signedIn(admin.id),
    'select status, held_because from public.withdraw_requests_with_user where id = $1',
    [requestId],
  );
  return onlyRow(rows);
}

async function notificationsOf(userId: string, kind: string) {
  const { rows } = await pool.query<{ body: string }>(
    'select body from public.notifications where user_id = $1 and kind = $2',
    [userId, kind],
  );
  return rows.map((row) => row.body);
}

describe('the lock after a pending withdrawal', () => {
  it('refuses the approval with the reason for the admin, and no money leaves', async () => {
    const person = await createUser(pool, { fullName: 'Robbed Person', deposit: 110 });
    const thiefs = await pendingWithdrawal(person, 20);
    await ownerReportsNotMe(person);
    const before = await moneyStateOf(pool, person.id);

    expect(await errorOf(approveWithdrawal(thiefs))).toEqual({ code: 'P0001', message: lockedMessage });

    expect(await moneyStateOf(pool, person.id)).toEqual(before);
    expect(await withdrawQueueRowOf(thiefs)).toEqual({
      status: 'pending',
      held_because: lockedMessage.replace('Not approved. ', ''),
    });
  });

  it('tells the person and every admin that the open withdrawals are held', async () => {
    const person = await createUser(pool, { fullName: 'Robbed Person', deposit: 110 });
    await pendingWithdrawal(person, 20);
    await ownerReportsNotMe(person);
    expect(await notificationsOf(person.id, 'security.withdrawals_locked')).toEqual([
      'You reported a change you did not make. Change your password and contact support to unlock withdrawals. ' +
        'Your 1 open withdrawal will not be paid while locked.',
    ]);
    expect(await notificationsOf(admin.id, 'admin.person_locked')).toContain(
      'Robbed Person reported a change they did not make. Their 1 open withdrawal cannot be approved until the ' +
        'lock is ended on Settings.',
    );
  });

  it('still lets an admin reject the held withdrawal, which frees the money for the owner', async () => {
    const person = await createUser(pool, { deposit: 110 });
    const thiefs = await pendingWithdrawal(person, 20);
    await ownerReportsNotMe(person);
    await queryAs(
      pool,
      signedIn(admin.id),
      `select public.set_withdraw_request_status($1, 'rejected', gen_random_uuid())`,
      [thiefs],
    );
    expect(await withdrawQueueRowOf(thiefs)).toEqual({ status: 'rejected', held_because: null });
  });

  it('stops buying and selling too, asked or approved, and nothing changes', async () => {
    const person = await createUser(pool, { deposit: 110 });
    const buy = await addBuyRequest(pool, person.id, 20);
    const sell = await addSellRequest(pool, person.id);
    await ownerReportsNotMe(person);
    const before = await moneyStateOf(pool, person.id);

    for (const approval of ['approve_buy_request', 'approve_sell_request']) {
      const requestId = approval === 'approve_buy_request' ? buy : sell;
      expect(
        await errorOf(
          queryAs(pool, signedIn(admin.id), `select public.${approval}($1, gen_random_uuid())`, [requestId]),
        ),
      ).toEqual({ code: 'P0001', message: lockedMessage });
    }
    const personsRefusal =
      'Buying and selling are locked because you reported a change you did not make. Contact support to unlock them.';
    expect(
      await errorOf(
        queryAs(
          pool,
          signedIn(person.id),
          `select public.create_buy_request('bitcoin', 20, gen_random_uuid())`,
        ),
      ),
    ).toEqual({ code: 'P0001', message: personsRefusal });
    expect(
      await errorOf(
        queryAs(
          pool,
          signedIn(person.id),
          `select public.create_sell_request('bitcoin', 0.0001, gen_random_uuid())`,
        ),
      ),
    ).toEqual({ code: 'P0001', message: personsRefusal });

    expect(await moneyStateOf(pool, person.id)).toEqual(before);
  });

  it('lets a deposit complete: money arriving cannot be stolen', async () => {
    const person = await createUser(pool, { deposit: 110 });
    const deposit = await addPendingDeposit(pool, person.id, 40);
    await ownerReportsNotMe(person);
    await queryAs(
      pool,
      signedIn(admin.id),
      `select public.set_transaction_status($1, 'complete', gen_random_uuid())`,
      [deposit],
    );
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 150 });
  });

  it('holds for every writer: a complete withdrawal entry written straight to the ledger is refused', async () => {
    const person = await createUser(pool, { deposit: 110 });
    await ownerReportsNotMe(person);
    const error = await errorOf(
      pool.query(
        `insert into public.transactions (user_id, type, amount, status) values ($1, 'withdraw', 20, 'complete')`,
        [person.id],
      ),
    );
    expect(error).toEqual({ code: 'P0001', message: lockedMessage });
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 110 });
  });
});

describe('a password change (security hold) then an approval', () => {
  it('refuses the approval until the hold ends, saying until when and why, and no money leaves', async () => {
    const person = await createUser(pool, { deposit: 110 });
    const thiefs = await pendingWithdrawal(person, 20);
    await changePassword(pool, person.id);
    const before = await moneyStateOf(pool, person.id);

    const refusal = await errorOf(approveWithdrawal(thiefs));
    const holdReason =
      /^On security hold until \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC because their password was changed\. No money leaves until then unless an admin ends the hold on Settings\.$/;
    expect(refusal.code).toBe('P0001');
    expect(refusal.message.replace('Not approved. ', '')).toMatch(holdReason);
    expect(await moneyStateOf(pool, person.id)).toEqual(before);
    expect((await withdrawQueueRowOf(thiefs)).held_because).toMatch(holdReason);

    // The hold, and nothing else, stopped it: once it is over the same approval pays out.
    await pool.query(
      `update private.security_holds set changed_at = changed_at - interval '25 hours' where user_id = $1`,
      [person.id],
    );
    await approveWithdrawal(thiefs);
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 90 });
  });

  it('leaves buying open during the hold: the money stays in the account', async () => {
    const person = await createUser(pool, { deposit: 110 });
    await changePassword(pool, person.id);
    const buy = await addBuyRequest(pool, person.id, 20);
    await queryAs(pool, signedIn(admin.id), 'select public.approve_buy_request($1, gen_random_uuid())', [
      buy,
    ]);
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 90 });
  });
});
