import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  addBuyRequest,
  addPendingDeposit,
  addWithdrawRequest,
  connect,
  createUser,
  errorOf,
  moneyStateOf,
  queryAs,
  signedIn,
  type CreatedUser,
} from '../support/db';

/**
 * Maker-checker (the four-eyes rule): no admin decides a request of their own account or deposits to it, and
 * a decision moving more than `second_admin_above` (1,000 USD unless changed in Settings) takes two admins,
 * the first proposing and another confirming, both in the audit log.
 */
let pool: pg.Pool;
let firstAdmin: CreatedUser;
let secondAdmin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  firstAdmin = await createUser(pool, { admin: true });
  secondAdmin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

const ownAccount = { code: 'P0001', message: 'This is your own account: another admin must decide this' };

const decide = (admin: CreatedUser, sql: string, id: string) => queryAs(pool, signedIn(admin.id), sql, [id]);
const approveWithdrawal = `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`;
const completeEntry = `select public.set_transaction_status($1, 'complete', gen_random_uuid())`;

async function auditOf(targetId: string) {
  const { rows } = await pool.query<{ action: string; actor_id: string; proposed_by: string | null }>(
    `select action, actor_id, details ->> 'proposed_by' as proposed_by from public.audit_log
     where target_id = $1 and action like any (array['approval.%', 'withdraw_request.%', 'transaction.%'])
     order by at, action`,
    [targetId],
  );
  return rows;
}

async function withdrawQueueRowOf(requestId: string) {
  const { rows } = await queryAs<{ status: string; proposed_by: string | null }>(
    pool,
    signedIn(secondAdmin.id),
    'select status, proposed_by from public.withdraw_requests_with_user where id = $1',
    [requestId],
  );
  return rows[0];
}

describe('an admin paying themselves', () => {
  it('cannot deposit to their own account, complete a deposit to it, or approve their own requests', async () => {
    const admin = await createUser(pool, { admin: true, deposit: 100 });
    const pendingDeposit = await addPendingDeposit(pool, admin.id, 500);
    const buy = await addBuyRequest(pool, admin.id, 50);
    const withdrawal = await addWithdrawRequest(pool, admin.id, 50);
    const before = await moneyStateOf(pool, admin.id);

    expect(
      await errorOf(
        queryAs(pool, signedIn(admin.id), 'select public.create_deposit($1, 900, gen_random_uuid())', [
          admin.id,
        ]),
      ),
    ).toEqual(ownAccount);
    expect(await errorOf(decide(admin, completeEntry, pendingDeposit))).toEqual(ownAccount);
    expect(
      await errorOf(decide(admin, 'select public.approve_buy_request($1, gen_random_uuid())', buy)),
    ).toEqual(ownAccount);
    expect(await errorOf(decide(admin, approveWithdrawal, withdrawal))).toEqual(ownAccount);
    // Not even a rejection: the decision is another admin's.
    expect(
      await errorOf(decide(admin, 'select public.reject_buy_request($1, gen_random_uuid())', buy)),
    ).toEqual(ownAccount);

    expect(await moneyStateOf(pool, admin.id)).toEqual(before);
    // Another admin decides the same, as the rule wants.
    await decide(firstAdmin, completeEntry, pendingDeposit);
    expect(await moneyStateOf(pool, admin.id)).toMatchObject({ balance: 600 });
  });
});

describe("a second admin's confirmation", () => {
  it('moves nothing on the first approval above 1,000 USD; another admin confirms it, both audited', async () => {
    const person = await createUser(pool, { deposit: 2_000 });
    const withdrawal = await addWithdrawRequest(pool, person.id, 1_500);
    const before = await moneyStateOf(pool, person.id);

    await decide(firstAdmin, approveWithdrawal, withdrawal);
    expect(await moneyStateOf(pool, person.id)).toEqual(before);
    expect(await withdrawQueueRowOf(withdrawal)).toEqual({ status: 'pending', proposed_by: firstAdmin.id });

    // The first admin again, even with a new key, is not a second admin.
    expect(await errorOf(decide(firstAdmin, approveWithdrawal, withdrawal))).toEqual({
      code: 'P0001',
      message: 'You approved this already: it is awaiting a second admin',
    });
    expect(await moneyStateOf(pool, person.id)).toEqual(before);

    await decide(secondAdmin, approveWithdrawal, withdrawal);
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 500 });
    expect(await withdrawQueueRowOf(withdrawal)).toEqual({ status: 'approved', proposed_by: null });
    expect(await auditOf(withdrawal)).toEqual([
      { action: 'approval.propose', actor_id: firstAdmin.id, proposed_by: null },
      { action: 'approval.confirm', actor_id: secondAdmin.id, proposed_by: firstAdmin.id },
      { action: 'withdraw_request.set_status', actor_id: secondAdmin.id, proposed_by: null },
    ]);
  });

  it('takes two admins to complete a deposit above 1,000 USD, one admin at 1,000 or less', async () => {
    const person = await createUser(pool);
    const large = await addPendingDeposit(pool, person.id, 5_000);
    const small = await addPendingDeposit(pool, person.id, 1_000);

    await decide(firstAdmin, completeEntry, small);
    await decide(firstAdmin, completeEntry, large);
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 1_000 });
    await decide(secondAdmin, completeEntry, large);
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 6_000 });
  });

  it('follows the threshold set in Settings, and the change is audited', async () => {
    const person = await createUser(pool, { deposit: 2_000 });
    const withdrawal = await addWithdrawRequest(pool, person.id, 1_500);
    // The settings are shared by every test file: change, look, and roll back.
    const balance = await actAs(
      pool,
      signedIn(firstAdmin.id),
      async (db) => {
        await db.query('update public.transaction_limits set second_admin_above = 2000');
        await db.query(approveWithdrawal, [withdrawal]);
        const { rows } = await db.query<{ balance: string; audited: boolean }>(
          `select (select balance::text from public.profiles where id = $1) as balance,
                  exists (select from public.audit_log where action = 'transaction_limits.update' and at = now()
                          and details -> 'new' ->> 'second_admin_above' = '2000') as audited`,
          [person.id],
        );
        return rows[0];
      },
      { rollback: true },
    );
    expect(balance).toEqual({ balance: '500.00', audited: true });
  });

  it('refuses a threshold that is not a USD amount', async () => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(firstAdmin.id),
        'update public.transaction_limits set second_admin_above = -1',
        [],
        {
          rollback: true,
        },
      ),
    );
    expect(error.code).toBe('23514');
  });

  it('is read by admins at aal2 only; people and aal1 sessions see no proposals', async () => {
    const person = await createUser(pool, { deposit: 2_000 });
    await decide(firstAdmin, approveWithdrawal, await addWithdrawRequest(pool, person.id, 1_200));
    const count = async (actor: Parameters<typeof queryAs>[1]) =>
      (await queryAs(pool, actor, 'select 1 from public.second_approvals')).rowCount;
    expect(await count(signedIn(secondAdmin.id))).toBeGreaterThan(0);
    expect(await count({ role: 'authenticated', userId: secondAdmin.id, aal: 'aal1' })).toBe(0);
    expect(await count(signedIn(person.id))).toBe(0);
  });
});
