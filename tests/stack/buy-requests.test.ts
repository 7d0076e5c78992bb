import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin, signUpNewPerson, type Person } from '../support/api';

/**
 * The database, not the form, is what stands between a person and a bad request: whatever a client
 * sends through the API, a buy request is created only pending, for oneself and within the limits,
 * with the texts the app shows.
 */
let buyer: Person;
let otherPerson: Person;
let admin: Person;

beforeAll(async () => {
  [buyer, otherPerson, admin] = await Promise.all([signUpNewPerson(), signUpNewPerson(), signInAdmin()]);
});

afterAll(async () => {
  await Promise.all([buyer, otherPerson, admin].map((person) => person.client.auth.signOut()));
});

async function buyRequestCount(person: Person) {
  const { count, error } = await person.client
    .from('buy_requests')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', person.id);
  if (error) throw error;
  return count;
}

describe('buy requests sent straight to the API', () => {
  it.each([
    [5, 'Minimum transaction amount is $10'],
    [9.99, 'Minimum transaction amount is $10'],
    [10000.01, 'Maximum transaction amount is $10,000'],
  ])('$%d is refused with "%s" and nothing is stored', async (amount, message) => {
    const { error, status } = await buyer.client
      .from('buy_requests')
      .insert({ user_id: buyer.id, cryptocurrency: 'bitcoin', amount });
    expect(status).toBe(400);
    expect(error?.message).toBe(message);
    expect(await buyRequestCount(buyer)).toBe(0);
  });

  it('a request within the limits is stored pending, and the person sees it', async () => {
    const { data, error } = await buyer.client
      .from('buy_requests')
      .insert({ user_id: buyer.id, cryptocurrency: 'ethereum', amount: 10 })
      .select('cryptocurrency, amount, status')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ cryptocurrency: 'ethereum', amount: 10, status: 'pending' });
  });

  it('a request that claims to be approved already is refused', async () => {
    const before = await buyRequestCount(buyer);
    const { error } = await buyer.client
      .from('buy_requests')
      .insert({ user_id: buyer.id, cryptocurrency: 'bitcoin', amount: 50, status: 'approved' });
    expect(error?.code).toBe('42501');
    expect(await buyRequestCount(buyer)).toBe(before);
  });

  it("a request filed in someone else's name is refused", async () => {
    const { error } = await buyer.client
      .from('buy_requests')
      .insert({ user_id: otherPerson.id, cryptocurrency: 'bitcoin', amount: 50 });
    expect(error?.code).toBe('42501');
    expect(await buyRequestCount(otherPerson)).toBe(0);
  });

  it('a person cannot approve their own request', async () => {
    const { data } = await buyer.client
      .from('buy_requests')
      .insert({ user_id: buyer.id, cryptocurrency: 'bitcoin', amount: 20 })
      .select('id')
      .single();
    const { error } = await buyer.client.rpc('approve_buy_request', { request_id: data?.id ?? '' });
    expect(error).not.toBeNull();
    const { data: stored } = await buyer.client
      .from('buy_requests')
      .select('status')
      .eq('id', data?.id ?? '')
      .single();
    expect(stored?.status).toBe('pending');
  });

  it('limits an admin changes apply to the next request at once, whatever the page loaded earlier', async () => {
    const setLimits = (min_amount: number, max_amount: number) =>
      admin.client.from('transaction_limits').update({ min_amount, max_amount }).eq('id', true);
    expect((await setLimits(10, 500)).error).toBeNull();
    try {
      const { error } = await buyer.client
        .from('buy_requests')
        .insert({ user_id: buyer.id, cryptocurrency: 'bitcoin', amount: 1000 });
      expect(error?.message).toBe('Maximum transaction amount is $500');
    } finally {
      expect((await setLimits(10, 10000)).error).toBeNull();
    }
  });
});
