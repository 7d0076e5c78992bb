import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withdrawRequestsErrorMessage } from '@/features/withdraw/api/withdraw-messages';
import type { Person } from '../support/api';
import { connect } from '../support/db';
import { fundedPerson, postJson, uniqueCard } from '../support/withdraw-stack';

let pool: pg.Pool;
let person: Person;
let otherPerson: Person;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  person = await fundedPerson(pool, 5000);
  otherPerson = await fundedPerson(pool, 5000);
});

afterAll(async () => {
  await pool.end();
});

/** The recent list exactly as the page asks for it. */
const recentRequests = (who: Person) =>
  who.client
    .from('withdraw_requests')
    .select('id, amount, withdraw_method, status, date')
    .eq('user_id', who.id)
    .order('date', { ascending: false })
    .limit(5);

describe('the recent withdraw requests list', () => {
  it('shows a person their 5 newest requests and nothing of anyone else', async () => {
    for (const amount of [11, 12, 13, 14, 15, 16]) {
      expect(
        (await postJson('withdrawals', person, { amount, withdrawMethod: 'card', details: uniqueCard() }))
          .status,
      ).toBe(201);
    }
    await postJson('withdrawals', otherPerson, { amount: 99, withdrawMethod: 'card', details: uniqueCard() });

    const { data, error } = await recentRequests(person);
    expect(error).toBeNull();
    expect(data?.map((row) => row.amount)).toEqual([16, 15, 14, 13, 12]);
    expect(data?.every((row) => row.status === 'pending' && row.withdraw_method === 'card')).toBe(true);

    const { data: asOther } = await person.client
      .from('withdraw_requests')
      .select('id, amount')
      .eq('user_id', otherPerson.id);
    expect(asOther).toEqual([]);
  });

  it('reads a missing table as the system updating', async () => {
    const { error } = await person.client
      .from('withdraw_requests_archive' as 'withdraw_requests')
      .select('id');
    expect(error).not.toBeNull();
    expect(withdrawRequestsErrorMessage(error ?? { message: '' })).toBe(
      'The system is currently updating. Please try again in a few minutes.',
    );
  });

  it('reads a missing function as the system updating', async () => {
    const { error } = await person.client.rpc('recent_withdraw_requests' as 'create_buy_request', {
      cryptocurrency: 'bitcoin',
      amount: 1,
      idempotency_key: person.id,
    });
    expect(error).not.toBeNull();
    expect(withdrawRequestsErrorMessage(error ?? { message: '' })).toBe(
      'The system is currently updating. Please try again in a few minutes.',
    );
  });

  it('names the reason for any other failure', async () => {
    const { error } = await person.client.from('withdraw_requests').select('id').eq('id', 'not-a-uuid');
    expect(error).not.toBeNull();
    expect(withdrawRequestsErrorMessage(error ?? { message: '' })).toBe(
      `Failed to fetch withdraw requests: ${error?.message}`,
    );
  });
});
