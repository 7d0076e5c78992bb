import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, callApi, signInAdmin, signUpNewPerson, type Person } from '../support/api';
import { fundPerson, idOf, requestBuy } from '../support/keyed-calls';

const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
let alice: Person;
let bob: Person;
let admin: Person;

async function fileBuyRequests(person: Person, amounts: number[], cryptocurrency = 'bitcoin') {
  for (const amount of amounts) await idOf(requestBuy(person.client, cryptocurrency, amount));
}

async function buyRequestCount(userId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'select count(*)::int as count from public.buy_requests where user_id = $1',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

beforeAll(async () => {
  [alice, bob, admin] = await Promise.all([signUpNewPerson('Alice'), signUpNewPerson('Bob'), signInAdmin()]);
  // Buys reserve their USD, so each person has what their requests take.
  await Promise.all([fundPerson(admin.client, alice.id, 1000), fundPerson(admin.client, bob.id, 1000)]);
  await fileBuyRequests(alice, [10, 20, 30, 40, 50]);
  await fileBuyRequests(alice, [60], 'ethereum');
  await fileBuyRequests(bob, [15]);
});
afterAll(() => db.end());

describe('reading', () => {
  it('shows a person only their own rows, and an admin everyone’s', async () => {
    const { data: own } = await alice.client.from('buy_requests').select('user_id');
    expect(own).toHaveLength(6);
    expect(new Set(own?.map((row) => row.user_id))).toEqual(new Set([alice.id]));

    const { data: all } = await admin.client
      .from('buy_requests')
      .select('user_id')
      .in('user_id', [alice.id, bob.id]);
    expect(all).toHaveLength(7);
  });

  it('filters, orders, limits and offsets like PostgREST', async () => {
    const { data } = await alice.client
      .from('buy_requests')
      .select('amount, coin:cryptocurrency')
      .eq('cryptocurrency', 'bitcoin')
      .gte('amount', 20)
      .lt('amount', 50)
      .order('amount', { ascending: false })
      .range(1, 2);
    expect(data).toEqual([
      { amount: 30, coin: 'bitcoin' },
      { amount: 20, coin: 'bitcoin' },
    ]);
  });

  it('supports neq, in, is, like, ilike and or', async () => {
    const amounts = async (query: PromiseLike<{ data: { amount: number }[] | null }>) =>
      ((await query).data ?? []).map((row) => row.amount).sort((a, b) => a - b);
    const table = () => alice.client.from('buy_requests').select('amount');
    expect(await amounts(table().neq('cryptocurrency', 'bitcoin'))).toEqual([60]);
    expect(await amounts(table().in('amount', [10, 60]))).toEqual([10, 60]);
    expect(await amounts(table().is('decided_at', null).eq('amount', 40))).toEqual([40]);
    expect(await amounts(table().like('cryptocurrency', 'eth*'))).toEqual([60]);
    expect(await amounts(table().ilike('cryptocurrency', 'ETH%'))).toEqual([60]);
    expect(await amounts(table().or('amount.eq.10,cryptocurrency.eq.ethereum'))).toEqual([10, 60]);
  });

  it('counts exactly with Content-Range, also for HEAD requests', async () => {
    const { count, data } = await alice.client.from('buy_requests').select('id', { count: 'exact' }).limit(2);
    expect(count).toBe(6);
    expect(data).toHaveLength(2);
    const head = await alice.client.from('buy_requests').select('*', { count: 'exact', head: true });
    expect(head.count).toBe(6);
    expect(head.data).toBeNull();
  });

  it('answers .single() without a row with PGRST116 and status 406', async () => {
    const { data, error, status } = await alice.client
      .from('buy_requests')
      .select('*')
      .eq('cryptocurrency', 'dogecoin')
      .single();
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: 'PGRST116' });
    expect(data).toBeNull();
  });

  it('returns one object for .single() with one row', async () => {
    const { data, error } = await alice.client
      .from('profiles')
      .select('id, full_name')
      .eq('id', alice.id)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: alice.id, full_name: 'Alice' });
  });

  it('names an unknown table (404 PGRST205) and an unknown column (400)', async () => {
    const table = await callApi('/rest/v1/no_such_table', {
      headers: { Authorization: `Bearer ${alice.accessToken}` },
    });
    expect(table.status).toBe(404);
    expect(await table.json()).toMatchObject({ code: 'PGRST205' });
    const { error, status } = await alice.client.from('buy_requests').select('no_such_column');
    expect(status).toBe(400);
    expect(error?.message).toContain('no_such_column');
  });

  // PostgREST src/PostgREST/Plan.hs (findRel) and Error.hs (AmbiguousRelBetween): a buy request has two foreign
  // keys to profiles (its owner and its deciding admin); a hint names one, and RLS decides the embedded row.
  it('embeds the owner profile named by its foreign key, and answers 300 PGRST201 without the hint', async () => {
    const ambiguous = await alice.client.from('buy_requests').select('amount, profiles(email)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toMatchObject({ code: 'PGRST201' });
    const { data, status } = await alice.client
      .from('buy_requests')
      .select('amount, owner:profiles!user_id(email)')
      .limit(1);
    expect(status).toBe(200);
    expect(data).toEqual([{ amount: expect.anything(), owner: { email: alice.email } }]);
  });
});

describe('row-level security and errors', () => {
  it('refuses a visitor without a session with 42501 and status 401', async () => {
    const { error, status } = await apiClient().from('buy_requests').select('*');
    expect(status).toBe(401);
    expect(error).toMatchObject({ code: '42501' });
  });

  it('refuses a signed-in person with 42501 and status 403', async () => {
    const { error, status } = await alice.client.from('status_types').insert({ name: `label-${Date.now()}` });
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501' });
  });

  it('refuses a buy request written straight to the table (no key), even for someone else, and writes nothing', async () => {
    const before = await buyRequestCount(bob.id);
    const { error, status } = await alice.client
      .from('buy_requests')
      .insert({ user_id: bob.id, cryptocurrency: 'bitcoin', amount: 10 });
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table buy_requests' });
    expect(await buyRequestCount(bob.id)).toBe(before);
  });

  it('answers a unique violation with 409', async () => {
    const name = `label-${Date.now()}`;
    expect((await admin.client.from('status_types').insert({ name })).error).toBeNull();
    const { error, status } = await admin.client.from('status_types').insert({ name });
    expect(status).toBe(409);
    expect(error).toMatchObject({ code: '23505' });
  });

  it('answers an RPC that raises Insufficient balance with 400 and that message', async () => {
    const { error, status } = await requestBuy(bob.client, 'bitcoin', 5000);
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: 'P0001',
      message: 'Insufficient balance (including all pending requests)',
    });
  });

  it('names an unknown function with 404 PGRST202', async () => {
    const response = await callApi('/rest/v1/rpc/no_such_function', {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'PGRST202' });
  });
});

describe('writing', () => {
  it('inserts with Prefer return=representation and returns the selected columns', async () => {
    const name = `returned ${Date.now()}`;
    const { data, error, status } = await admin.client
      .from('status_types')
      .insert({ name })
      .select('name')
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({ name });
  });

  it('updates and deletes only rows the policies allow', async () => {
    const { data, error } = await alice.client
      .from('profiles')
      .update({ full_name: 'Alice Renamed' })
      .eq('id', alice.id)
      .select('full_name');
    expect(error).toBeNull();
    expect(data).toEqual([{ full_name: 'Alice Renamed' }]);

    const { data: others } = await alice.client
      .from('profiles')
      .update({ full_name: 'Hacked' })
      .eq('id', bob.id)
      .select();
    expect(others).toEqual([]);
    const { rows } = await db.query('select full_name from public.profiles where id = $1', [bob.id]);
    expect(rows[0].full_name).toBe('Bob');
  });

  it('upserts with on_conflict, ignoring duplicates', async () => {
    const name = `upsert-${Date.now()}`;
    const first = await admin.client
      .from('status_types')
      .upsert({ name }, { onConflict: 'name', ignoreDuplicates: true })
      .select('name');
    const again = await admin.client
      .from('status_types')
      .upsert({ name }, { onConflict: 'name', ignoreDuplicates: true })
      .select('name');
    expect(first.error).toBeNull();
    expect(again.error).toBeNull();
    // PostgREST answers 201 to an insert ignoring duplicates, whether it inserted a row or none
    // (src/PostgREST/Response.hs: 200 is for a merge that inserted nothing).
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(first.data).toEqual([{ name }]);
    expect(again.data).toEqual([]);
    const { rows } = await db.query(
      'select count(*)::int as count from public.status_types where name = $1',
      [name],
    );
    expect(rows[0].count).toBe(1);
  });

  it('merges a body of only the conflict columns with DO UPDATE, which needs the UPDATE privilege', async () => {
    // PostgREST sets the given columns from EXCLUDED even when they are all conflict columns; status
    // types grant no UPDATE, so the upsert is refused as Postgres refuses it.
    const { error } = await admin.client
      .from('status_types')
      .upsert({ name: 'pending' }, { onConflict: 'name' });
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table status_types' });
  });

  const hostileBodies: [string, string][] = [
    ['bad JSON', `{"cryptocurrency": "bitcoin", "amount": `],
    [
      'a wrong type',
      JSON.stringify({ cryptocurrency: 'bitcoin', amount: 'lots', idempotency_key: randomUUID() }),
    ],
    [
      'an unknown argument',
      JSON.stringify({
        cryptocurrency: 'bitcoin',
        amount: 10,
        idempotency_key: randomUUID(),
        is_admin: true,
      }),
    ],
    ['a JSON string instead of an object', '"hello"'],
  ];
  it.each(hostileBodies)('answers %s with a 4xx and a reason, writing nothing', async (_, body) => {
    const before = await buyRequestCount(alice.id);
    const response = await callApi('/rest/v1/rpc/create_buy_request', {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect((await response.json()) as { message: string }).toHaveProperty('message');
    expect(await buyRequestCount(alice.id)).toBe(before);
  });

  it('answers a body over 1 MB with 413 and writes nothing', async () => {
    const before = await buyRequestCount(alice.id);
    const response = await callApi('/rest/v1/rpc/create_buy_request', {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        cryptocurrency: 'x'.repeat(1_100_000),
        amount: 10,
        idempotency_key: randomUUID(),
      }),
    });
    expect(response.status).toBe(413);
    expect(await buyRequestCount(alice.id)).toBe(before);
  });
});
