import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, signUpNewPerson, type Person } from '../support/api';

/**
 * The chart's reads through the API as the app sends them: signed-in people only, and a range the
 * functions do not know is refused with its name, as a 400.
 */
let person: Person;

beforeAll(async () => {
  person = await signUpNewPerson();
});

afterAll(async () => {
  await person.client.auth.signOut();
});

describe('the history RPCs through the API', () => {
  it('answer a signed-in person: a price series of the seeded history, their own portfolio (empty)', async () => {
    const prices = await person.client.rpc('price_history', { cryptocurrency: 'bitcoin', range: '7d' });
    expect(prices.error).toBeNull();
    // The seed holds three days of hourly bitcoin prices.
    expect(prices.data?.length).toBeGreaterThanOrEqual(48);
    expect(prices.data?.[0]).toEqual({ captured_at: expect.any(String), price: expect.any(Number) });
    const portfolio = await person.client.rpc('portfolio_history', { range: '7d' });
    expect(portfolio).toMatchObject({ error: null, data: [] });
  });

  it.each([
    ['price_history', { cryptocurrency: 'bitcoin', range: 'week' }],
    ['portfolio_history', { range: '1y' }],
  ] as const)('%s refuses an unknown range by name, as a 400', async (rpc, args) => {
    const { error, status } = await person.client.rpc(rpc, args);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '22023', message: 'Range must be one of 24h, 7d, 30d or all' });
  });

  it.each([
    ['price_history', { cryptocurrency: 'bitcoin', range: '24h' }],
    ['portfolio_history', { range: '24h' }],
  ] as const)('%s is refused to a visitor', async (rpc, args) => {
    const { error, status } = await apiClient().rpc(rpc, args);
    expect(status).toBe(401);
    expect(error?.code).toBe('42501');
  });
});
