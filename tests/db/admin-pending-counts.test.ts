import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addWithdrawRequest,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  type CreatedUser,
} from '../support/db';

/** public.admin_pending_counts: the admin navigation's counts of requests waiting for a decision. */
let pool: pg.Pool;
let admin: CreatedUser;
let person: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  person = await createUser(pool, { deposit: 500 });
});

afterAll(async () => {
  await pool.end();
});

async function countsForAdmin() {
  const { rows } = await queryAs<{ buy_requests: string; withdraw_requests: string }>(
    pool,
    signedIn(admin.id),
    'select * from public.admin_pending_counts()',
  );
  const [row] = rows;
  return { buy: Number(row?.buy_requests), withdraw: Number(row?.withdraw_requests) };
}

describe('admin_pending_counts', () => {
  it('counts the pending requests of both queues for an admin, and only the pending ones', async () => {
    const before = await countsForAdmin();
    const buyRequest = await addBuyRequest(pool, person.id, 20);
    await addBuyRequest(pool, person.id, 30);
    await addWithdrawRequest(pool, person.id, 40);
    expect(await countsForAdmin()).toEqual({ buy: before.buy + 2, withdraw: before.withdraw + 1 });

    await queryAs(pool, signedIn(admin.id), 'select public.reject_buy_request($1, gen_random_uuid())', [
      buyRequest,
    ]);
    expect(await countsForAdmin()).toEqual({ buy: before.buy + 1, withdraw: before.withdraw + 1 });
  });

  it('is refused to a signed-in person who is not an admin, even for their own requests', async () => {
    expect(
      await errorOf(queryAs(pool, signedIn(person.id), 'select * from public.admin_pending_counts()')),
    ).toEqual({
      code: '42501',
      message: 'Only admins can do this',
    });
  });

  it('cannot be called by anon at all', async () => {
    const refusal = await errorOf(queryAs(pool, anon, 'select * from public.admin_pending_counts()'));
    expect(refusal.code).toBe('42501');
    expect(refusal.message).toMatch(/permission denied for function admin_pending_counts/);
  });

  it('counts from the status indexes, not by reading every request', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      // The test tables are small, where a scan is cheaper; forbid it to see which index serves the count.
      await client.query('set local enable_seqscan = off');
      const plans: string[] = [];
      for (const table of ['buy_requests', 'withdraw_requests']) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `explain select count(*) from public.${table} where status = 'pending'`,
        );
        plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
      }
      await client.query('rollback');
      expect(plans[0]).toMatch(/Index.* (on|using) buy_requests_(status_date|pending)_idx/);
      expect(plans[1]).toMatch(/Index.* (on|using) withdraw_requests_status_date_idx/);
    } finally {
      client.release();
    }
  });
});
