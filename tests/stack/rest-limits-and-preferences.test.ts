import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { callApi, signInAdmin, signUpNewPerson, type Person } from '../support/api';
import { fundPerson, idOf, requestBuy } from '../support/keyed-calls';

/** A gateway over the test database whose config says `max_rows = 3`, to see the bound without 1,000 rows. */
let bounded: RunningGateway;
let alice: Person;
let admin: Person;
const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });

beforeAll(async () => {
  [bounded, alice, admin] = await Promise.all([
    startGateway({
      databaseUrl: inject('databaseUrl'),
      jwtSecret: inject('jwtSecret'),
      anonKey: inject('anonKey'),
      serviceRoleKey: inject('serviceRoleKey'),
      project: { maxRows: 3 },
    }),
    signUpNewPerson('Alice'),
    signInAdmin(),
  ]);
  // Buys reserve their USD: 150 for these, the rest for the tests' own.
  await fundPerson(admin.client, alice.id, 500);
  for (const amount of [10, 20, 30, 40, 50]) await idOf(requestBuy(alice.client, 'bitcoin', amount));
});
afterAll(async () => {
  await Promise.all([bounded.stop(), db.end()]);
});

async function rest(
  person: Person,
  path: string,
  {
    method = 'GET',
    prefer,
    body,
    gateway,
  }: { method?: string; prefer?: string; body?: unknown; gateway?: RunningGateway } = {},
) {
  const headers: Record<string, string> = { Authorization: `Bearer ${person.accessToken}` };
  if (prefer) headers.Prefer = prefer;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  const response = gateway
    ? await fetch(`${gateway.url}/rest/v1${path}`, {
        ...init,
        headers: { apikey: inject('anonKey'), ...headers },
      })
    : await callApi(`/rest/v1${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    contentRange: response.headers.get('content-range'),
    body: text ? (JSON.parse(text) as unknown) : null,
  };
}

describe('max_rows (config.toml [api])', () => {
  it('answers no more rows than max_rows, and tells the whole count in Content-Range (206)', async () => {
    const page = await rest(alice, '/buy_requests?select=amount&order=amount', {
      prefer: 'count=exact',
      gateway: bounded,
    });
    expect(page.status).toBe(206);
    expect(page.contentRange).toBe('0-2/5');
    expect(page.body).toEqual([{ amount: 10 }, { amount: 20 }, { amount: 30 }]);
  });

  it('keeps a smaller limit the caller asked for', async () => {
    const page = await rest(alice, '/buy_requests?select=amount&order=amount&limit=2&offset=3', {
      gateway: bounded,
    });
    expect(page).toMatchObject({
      status: 200,
      contentRange: '3-4/*',
      body: [{ amount: 40 }, { amount: 50 }],
    });
  });
});

describe('ranges as PostgREST answers them (Query/RangeQuery.hs)', () => {
  it('answers an offset past the end, with a count, with 416 PGRST103', async () => {
    const page = await rest(alice, '/buy_requests?select=amount&offset=6', { prefer: 'count=exact' });
    expect(page).toEqual({
      status: 416,
      contentRange: null,
      body: {
        code: 'PGRST103',
        message: 'Requested range not satisfiable',
        details: 'An offset of 6 was requested, but there are only 5 rows.',
        hint: null,
      },
    });
  });

  it('answers an offset at the end with an empty page', async () => {
    const page = await rest(alice, '/buy_requests?select=amount&offset=5', { prefer: 'count=exact' });
    expect(page).toMatchObject({ status: 206, contentRange: '*/5', body: [] });
  });

  it('counts with the planner’s estimate for count=planned', async () => {
    const page = await rest(alice, '/buy_requests?select=amount', { prefer: 'count=planned' });
    expect(page.body).toHaveLength(5);
    expect(page.contentRange).toMatch(/^0-4\/\d+$/);
  });

  it('sends Content-Range on calls and on writes', async () => {
    // An admin's status type: a plain insert the API allows (money requests go through their RPCs).
    const inserted = await rest(admin, '/status_types', {
      method: 'POST',
      body: { name: `written ${randomUUID()}` },
    });
    expect(inserted).toMatchObject({ status: 201, contentRange: '*/*' });
    const counted = await rest(admin, '/status_types', {
      method: 'POST',
      prefer: 'count=exact',
      body: { name: `counted ${randomUUID()}` },
    });
    expect(counted).toMatchObject({ status: 201, contentRange: '*/1' });
    const requestId = await idOf(requestBuy(alice.client, 'bitcoin', 62));
    const call = await rest(admin, '/rpc/reject_buy_request', {
      method: 'POST',
      body: { request_id: requestId, idempotency_key: randomUUID() },
    });
    expect(call.contentRange).toBe('0-0/*');
  });
});

describe('Prefer handling=strict (ApiRequest/Preferences.hs)', () => {
  it('refuses an unknown preference with PGRST122', async () => {
    const answer = await rest(alice, '/buy_requests', { prefer: 'handling=strict, return=everything' });
    expect(answer).toEqual({
      status: 400,
      contentRange: null,
      body: {
        code: 'PGRST122',
        message: 'Invalid preferences given with handling=strict',
        details: 'Invalid preferences: return=everything',
        hint: null,
      },
    });
  });

  it('applies max-affected to a call: PGRST124, and the call’s writes are rolled back', async () => {
    const requestId = await idOf(requestBuy(alice.client, 'bitcoin', 70));
    const answer = await rest(admin, '/rpc/reject_buy_request', {
      method: 'POST',
      prefer: 'handling=strict, max-affected=0',
      body: { request_id: requestId, idempotency_key: randomUUID() },
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'PGRST124' } });
    const { rows } = await db.query('select status from public.buy_requests where id = $1', [requestId]);
    expect(rows[0]?.status).toBe('pending');
  });

  it('ignores max-affected on an insert, as PostgREST does', async () => {
    const answer = await rest(admin, '/status_types', {
      method: 'POST',
      prefer: 'handling=strict, max-affected=1',
      body: ['first', 'second'].map((name) => ({ name: `${name} ${randomUUID()}` })),
    });
    expect(answer.status).toBe(201);
  });
});

describe('the URL grammar as PostgREST parses it', () => {
  it('reads select=*,rel(...) as an embedding, and names an aggregate as unsupported', async () => {
    expect(await rest(alice, '/buy_requests?select=*,profiles(full_name)')).toMatchObject({
      status: 300,
      body: { code: 'PGRST201' },
    });
    expect(await rest(alice, '/buy_requests?select=amount.sum()')).toMatchObject({
      status: 400,
      body: { message: "Unsupported by the local stack: aggregate in select: 'amount.sum()'" },
    });
  });

  it('reads a quoted column name, with spaces too, as a column name', async () => {
    const quoted = await rest(alice, '/buy_requests?select="amount"&order="amount".desc&limit=1');
    expect(quoted).toMatchObject({ status: 200, body: [{ amount: 70 }] });
    const spaced = await rest(alice, '/buy_requests?select="the amount"');
    expect(spaced).toMatchObject({ status: 400, body: { code: '42703' } });
    expect((spaced.body as { message: string }).message).toContain('the amount');
  });

  it('refuses like on a non-text column as Postgres does under PostgREST (no silent cast)', async () => {
    const answer = await rest(alice, '/buy_requests?amount=like.1*');
    expect(answer).toMatchObject({
      status: 404,
      body: { code: '42883', message: 'operator does not exist: numeric ~~ unknown' },
    });
  });
});
