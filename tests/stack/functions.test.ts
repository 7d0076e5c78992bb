import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { apiClient, callApi, signUpNewPerson, type Person } from '../support/api';
import { callerAt } from '../support/from-address';

/** A gateway over the shared database serving the fixture functions, with a short timeout. */
let fixtures: RunningGateway;
let person: Person;

beforeAll(async () => {
  fixtures = await startGateway({
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    functionsDir: new URL('../fixtures/functions', import.meta.url).pathname,
    functionTimeoutMs: 1500,
  });
  person = await signUpNewPerson();
});
afterAll(() => fixtures?.stop());

function callFixture(path: string, headers: Record<string, string> = {}) {
  return fetch(`${fixtures.url}/functions/v1/${path}`, {
    headers: { apikey: inject('anonKey'), ...headers },
  });
}

describe('Edge Functions', () => {
  it('run in Deno and receive the caller’s JWT, path, query and body', async () => {
    const client = apiClient(inject('anonKey'), fixtures.url);
    await client.auth.setSession({
      access_token: person.accessToken,
      refresh_token: (await person.client.auth.getSession()).data.session?.refresh_token ?? '',
    });
    const { data, error } = await client.functions.invoke('echo/sub/path?x=1', { body: { hello: 'world' } });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      method: 'POST',
      path: '/echo/sub/path',
      query: '?x=1',
      body: { hello: 'world' },
      callerEmail: person.email,
      environment: { SUPABASE_URL: fixtures.url, hasAnonKey: true, hasServiceRoleKey: true, hasDbUrl: true },
    });
    expect((data as { runtime: string }).runtime).toMatch(/^deno \d+\.\d+/);
    expect((data as { authorization: string }).authorization).toBe(`Bearer ${person.accessToken}`);
  });

  it('receive the caller’s address from the connection, never from an X-Forwarded-For the caller wrote', async () => {
    const caller = callerAt('127.0.0.7');
    const answer = await caller.get(`${fixtures.url}/functions/v1/echo`, {
      apikey: inject('anonKey'),
      Authorization: `Bearer ${person.accessToken}`,
      'X-Forwarded-For': '203.0.113.5',
    });
    caller.close();
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { forwardedFor: string }).forwardedFor).toBe('127.0.0.7');
  });

  it('refuse a call without a JWT when verify_jwt is on (the default)', async () => {
    const response = await callFixture('echo');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED_NO_AUTH_HEADER' });
  });

  it('refuse a JWT signed with another secret', async () => {
    const [header, payload] = person.accessToken.split('.');
    const response = await callFixture('echo', { Authorization: `Bearer ${header}.${payload}.c2lnbmF0dXJl` });
    expect(response.status).toBe(401);
  });

  it('answer an unknown function with 404', async () => {
    const response = await callFixture('no-such-function', { Authorization: `Bearer ${inject('anonKey')}` });
    expect(response.status).toBe(404);
  });

  it('report a function that fails to load with a 503 and its error', async () => {
    const response = await callFixture('broken', { Authorization: `Bearer ${inject('anonKey')}` });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { message: string }).message).toContain('broken on purpose');
  });

  it('answer a crash with a 5xx and a reason, and serve the next request from a fresh worker', async () => {
    const auth = { Authorization: `Bearer ${inject('anonKey')}` };
    const before = (await (await callFixture('unstable', auth)).json()) as { pid: number };
    const crashed = await callFixture('unstable?mode=crash', auth);
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    expect(((await crashed.json()) as { message: string }).message).toMatch(/crashed/);
    const after = await callFixture('unstable', auth);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { pid: number }).pid).not.toBe(before.pid);
  });

  it('answer a hang with 504 after the timeout, and serve the next request', async () => {
    const auth = { Authorization: `Bearer ${inject('anonKey')}` };
    const started = Date.now();
    const hung = await callFixture('unstable?mode=hang', auth);
    expect(hung.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(5000);
    const after = await callFixture('unstable', auth);
    expect(after.status).toBe(200);
  });
});

describe('Edge Function workers', () => {
  it('start once for calls that arrive together, and are all gone when the gateway stops', async () => {
    const gateway = await startGateway({
      databaseUrl: inject('databaseUrl'),
      jwtSecret: inject('jwtSecret'),
      anonKey: inject('anonKey'),
      serviceRoleKey: inject('serviceRoleKey'),
      functionsDir: new URL('../fixtures/functions', import.meta.url).pathname,
    });
    let pids: number[];
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${gateway.url}/functions/v1/unstable`, {
            headers: { apikey: inject('anonKey'), Authorization: `Bearer ${inject('anonKey')}` },
          }),
        ),
      );
      pids = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { pid: number }).pid));
    } finally {
      await gateway.stop();
    }
    expect(new Set(pids).size).toBe(1);
    const isRunning = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(pids.filter(isRunning)).toEqual([]);
  });
});

describe('the market function on the stack', () => {
  it('answers without a JWT (verify_jwt = false) in CoinGecko’s /coins/markets shape, from the simulator', async () => {
    const response = await fetch(
      `${inject('apiUrl')}/functions/v1/market/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=10&page=1`,
    );
    expect(response.status).toBe(200);
    const coins = (await response.json()) as Record<string, unknown>[];
    expect(coins.length).toBeGreaterThan(1);
    expect(coins[0]).toMatchObject({
      id: expect.any(String),
      symbol: expect.any(String),
      name: expect.any(String),
      image: expect.any(String),
      current_price: expect.any(Number),
      market_cap: expect.any(Number),
      price_change_percentage_24h: expect.any(Number),
    });
  });

  it('still refuses a wrong apikey when one is sent', async () => {
    const response = await callApi('/functions/v1/market/coins/markets?vs_currency=usd', {
      headers: { apikey: 'wrong' },
    });
    expect(response.status).toBe(401);
  });
});
