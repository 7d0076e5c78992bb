import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addSellRequest,
  addPendingDeposit,
  addVerifiedFactor,
  addWithdrawRequest,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type CreatedUser,
} from '../support/db';

/**
 * Admins work at aal2: every admin RPC refuses an admin whose session verified no second factor, naming
 * what is missing, and serves the same admin once the session is at aal2. (The tables and views are in the
 * access matrix.) Every call is rolled back, so each one meets the same fixture.
 */
const aal2Missing = 'Admins must confirm a code from their authenticator app (aal2) to do this';

let pool: pg.Pool;
let admin: CreatedUser;
let person: CreatedUser;
/** Someone with nothing left, whose account may be closed. */
let leaver: CreatedUser;
let fixture: {
  buyRequestId: string;
  sellRequestId: string;
  withdrawRequestId: string;
  pendingDepositId: string;
};

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { fullName: 'Aal2 Admin', admin: true });
  person = await createUser(pool, { fullName: 'Aal2 Person', deposit: 1000 });
  leaver = await createUser(pool);
  fixture = {
    buyRequestId: await addBuyRequest(pool, person.id, 100),
    sellRequestId: await addSellRequest(pool, person.id),
    withdrawRequestId: await addWithdrawRequest(pool, person.id, 50),
    pendingDepositId: await addPendingDeposit(pool, person.id, 25),
  };
});

afterAll(async () => {
  await pool.end();
});

const adminCalls: { rpc: string; sql: string; params: () => unknown[] }[] = [
  {
    rpc: 'approve_buy_request',
    sql: 'select public.approve_buy_request($1, $2)',
    params: () => [fixture.buyRequestId, randomUUID()],
  },
  {
    rpc: 'reject_buy_request',
    sql: 'select public.reject_buy_request($1, $2)',
    params: () => [fixture.buyRequestId, randomUUID()],
  },
  {
    rpc: 'approve_sell_request',
    sql: 'select public.approve_sell_request($1, $2)',
    params: () => [fixture.sellRequestId, randomUUID()],
  },
  {
    rpc: 'reject_sell_request',
    sql: 'select public.reject_sell_request($1, $2)',
    params: () => [fixture.sellRequestId, randomUUID()],
  },
  {
    rpc: 'set_withdraw_request_status',
    sql: `select public.set_withdraw_request_status($1, 'approved', $2)`,
    params: () => [fixture.withdrawRequestId, randomUUID()],
  },
  {
    rpc: 'set_transaction_status',
    sql: `select public.set_transaction_status($1, 'complete', $2)`,
    params: () => [fixture.pendingDepositId, randomUUID()],
  },
  {
    rpc: 'create_deposit',
    sql: 'select id from public.create_deposit($1, 10, $2)',
    params: () => [person.id, randomUUID()],
  },
  { rpc: 'delete_user', sql: 'select public.delete_user($1)', params: () => [leaver.id] },
  { rpc: 'remove_two_factor', sql: 'select public.remove_two_factor($1)', params: () => [person.id] },
];

describe.each(adminCalls)('$rpc', ({ sql, params }) => {
  it('refuses an admin signed in with the password only, naming the missing code', async () => {
    expect(
      await errorOf(queryAs(pool, signedInWithPasswordOnly(admin.id), sql, params(), { rollback: true })),
    ).toEqual({ code: '42501', message: aal2Missing });
  });

  it('serves the admin at aal2', async () => {
    const { rowCount } = await queryAs(pool, signedIn(admin.id), sql, params(), { rollback: true });
    expect(rowCount).toBe(1);
  });

  it('still refuses a person who is not an admin, at aal2 too', async () => {
    const twoFactorPerson = await createUser(pool, { twoFactor: true });
    expect(
      await errorOf(queryAs(pool, signedIn(twoFactorPerson.id), sql, params(), { rollback: true })),
    ).toEqual({
      code: '42501',
      message: 'Only admins can do this',
    });
  });
});

describe('private.is_admin', () => {
  it('is true only for an admin at aal2', async () => {
    const isAdmin = async (actor: ReturnType<typeof signedIn>) =>
      (await queryAs<{ is_admin: boolean }>(pool, actor, 'select private.is_admin() as is_admin')).rows[0]
        ?.is_admin;
    expect(await isAdmin(signedInWithPasswordOnly(admin.id))).toBe(false);
    expect(await isAdmin(signedIn(admin.id))).toBe(true);
    expect(await isAdmin(signedIn((await createUser(pool, { twoFactor: true })).id))).toBe(false);
  });
});

describe('remove_two_factor (recovery for a person who lost their authenticator)', () => {
  it('removes every factor of the person and records who did it', async () => {
    const lostPhone = await createUser(pool, { fullName: 'Lost Phone' });
    await addVerifiedFactor(pool, lostPhone.id);
    await addVerifiedFactor(pool, lostPhone.id);

    const { rows } = await queryAs<{ removed: number }>(
      pool,
      signedIn(admin.id),
      'select public.remove_two_factor($1) as removed',
      [lostPhone.id],
    );
    expect(rows).toEqual([{ removed: 2 }]);
    const factors = await pool.query('select 1 from auth.mfa_factors where user_id = $1', [lostPhone.id]);
    expect(factors.rowCount).toBe(0);
    const audit = await pool.query(
      `select actor_id, action, target_table, details from public.audit_log where target_id = $1`,
      [lostPhone.id],
    );
    expect(audit.rows).toEqual([
      {
        actor_id: admin.id,
        action: 'user.remove_two_factor',
        target_table: 'profiles',
        details: { email: lostPhone.email, factors_removed: 2, sessions_ended: 0 },
      },
    ]);
  });

  it('answers User not found for an unknown id and changes nothing', async () => {
    expect(
      await errorOf(queryAs(pool, signedIn(admin.id), 'select public.remove_two_factor($1)', [randomUUID()])),
    ).toEqual({ code: 'P0002', message: 'User not found' });
  });

  it('lets nobody remove their own factors this way (that needs a code, through Auth)', async () => {
    const owner = await createUser(pool, { twoFactor: true });
    expect(
      await errorOf(queryAs(pool, signedIn(owner.id), 'select public.remove_two_factor($1)', [owner.id])),
    ).toEqual({ code: '42501', message: 'Only admins can do this' });
    const factors = await pool.query('select 1 from auth.mfa_factors where user_id = $1', [owner.id]);
    expect(factors.rowCount).toBe(1);
  });
});
