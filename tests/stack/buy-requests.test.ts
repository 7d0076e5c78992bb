import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin, signUpNewPerson, type Person } from '../support/api';
import { approveBuyRequest, fundPerson, idOf, requestBuy } from '../support/keyed-calls';

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
  await fundPerson(admin.client, buyer.id, 100);
});

afterAll(async () => {
  await Promise.all([buyer, otherPerson].map((person) => person.client.auth.signOut()));
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
    const { error, status } = await requestBuy(buyer.client, 'bitcoin', amount);
    expect(status).toBe(400);
    expect(error?.message).toBe(message);
    expect(await buyRequestCount(buyer)).toBe(0);
  });

  it('a request within the limits is stored pending, and the person sees it', async () => {
    const { data, error } = await requestBuy(buyer.client, 'ethereum', 10);
    expect(error).toBeNull();
    expect(data).toMatchObject({
      user_id: buyer.id,
      cryptocurrency: 'ethereum',
      amount: 10,
      status: 'pending',
    });
  });

  it('a request without an idempotency key is refused and nothing is stored', async () => {
    const before = await buyRequestCount(buyer);
    const { error, status } = await buyer.client.rpc('create_buy_request', {
      cryptocurrency: 'bitcoin',
      amount: 50,
    } as never);
    // The key defaults to null, as the approvals' do, so the call reaches the function and hears why.
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 'P0001', message: 'Idempotency key is required' });
    expect(await buyRequestCount(buyer)).toBe(before);
  });

  it.each([
    ['claims to be approved already', () => ({ user_id: buyer.id, status: 'approved' as const })],
    ["is filed in someone else's name", () => ({ user_id: otherPerson.id })],
    ['is an ordinary pending request', () => ({ user_id: buyer.id })],
  ])('a request written straight to the table (no key) that %s is refused', async (_what, claims) => {
    const before = [await buyRequestCount(buyer), await buyRequestCount(otherPerson)];
    const { error, status } = await buyer.client
      .from('buy_requests')
      .insert({ cryptocurrency: 'bitcoin', amount: 50, ...claims() });
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table buy_requests' });
    expect([await buyRequestCount(buyer), await buyRequestCount(otherPerson)]).toEqual(before);
  });

  it('a person cannot approve their own request', async () => {
    const requestId = await idOf(requestBuy(buyer.client, 'bitcoin', 20));
    const { error } = await approveBuyRequest(buyer.client, requestId);
    expect(error?.message).toBe('Only admins can do this');
    const { data: stored } = await buyer.client
      .from('buy_requests')
      .select('status')
      .eq('id', requestId)
      .single();
    expect(stored?.status).toBe('pending');
  });

  it('limits an admin changes apply to the next request at once, whatever the page loaded earlier', async () => {
    const setLimits = (min_amount: number, max_amount: number) =>
      admin.client.from('transaction_limits').update({ min_amount, max_amount }).eq('id', true);
    expect((await setLimits(10, 500)).error).toBeNull();
    try {
      const { error } = await requestBuy(buyer.client, 'bitcoin', 1000);
      expect(error?.message).toBe('Maximum transaction amount is $500');
    } finally {
      expect((await setLimits(10, 10000)).error).toBeNull();
    }
  });
});
