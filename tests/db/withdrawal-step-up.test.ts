import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  connect,
  createUser,
  createWithdrawRequest,
  errorOf,
  signedIn,
  signedInWithPasswordOnly,
  walletOf,
} from '../support/db';

/**
 * Step-up before money leaves: a person with a verified factor creates a withdrawal only from a session that
 * verified a code (aal2), whichever way the insert comes; a person without a factor is not asked.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

describe('a withdrawal by a person with two-factor authentication', () => {
  it('is refused from a session that verified only the password, and nothing is reserved', async () => {
    const person = await createUser(pool, { twoFactor: true, deposit: 500 });
    expect(
      await errorOf(createWithdrawRequest(pool, signedInWithPasswordOnly(person.id), { amount: 100 })),
    ).toEqual({
      code: '42501',
      message: 'Enter a code from your authenticator app to withdraw',
    });
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 500, reserved: 0, available: 500 });
  });

  it('is accepted from an aal2 session', async () => {
    const person = await createUser(pool, { twoFactor: true, deposit: 500 });
    const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 100 });
    expect(rows).toEqual([expect.objectContaining({ user_id: person.id, status: 'pending' })]);
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 100, available: 400 });
  });
});

describe('a withdrawal by a person without a factor', () => {
  it('needs no code', async () => {
    const person = await createUser(pool, { deposit: 500 });
    const { rows } = await createWithdrawRequest(pool, signedInWithPasswordOnly(person.id), { amount: 100 });
    expect(rows).toHaveLength(1);
  });
});
