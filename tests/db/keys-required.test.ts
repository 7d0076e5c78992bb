import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addPendingDeposit,
  addSellRequest,
  addWithdrawRequest,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  walletOf,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * Every request that moves money carries an idempotency key, for every role: a call without one is
 * refused with a plain message and changes nothing (no row, no status, no balance, no key stored). The
 * key-less decision bodies live in the private schema, where no API role reaches them.
 */
let pool: pg.Pool;
let admin: CreatedUser;
let owner: CreatedUser;
let otherUser: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  owner = await createUser(pool, { deposit: 1000 });
  otherUser = await createUser(pool, { deposit: 1000 });
});

afterAll(async () => {
  await pool.end();
});

type Role = 'anon' | 'the owner' | 'another user' | 'an admin' | 'the service role';
const roles: [Role, () => Actor][] = [
  ['anon', () => anon],
  ['the owner', () => signedIn(owner.id)],
  ['another user', () => signedIn(otherUser.id)],
  ['an admin', () => signedIn(admin.id)],
  ['the service role', () => serviceRole],
];

/** What a key-less call may have changed: the person's rows, statuses and balance, and stored keys. */
async function snapshot(userId: string) {
  const { rows } = await pool.query(
    `select (select count(*)::int from public.buy_requests where user_id = $1) as buy_requests,
            (select count(*)::int from public.transactions where user_id = $1) as transactions,
            (select string_agg(status::text, ',' order by id) from public.buy_requests where user_id = $1) as buy_statuses,
            (select string_agg(status, ',' order by id) from public.withdraw_requests where user_id = $1) as withdraw_statuses,
            (select string_agg(status, ',' order by id) from public.transactions where user_id = $1) as entry_statuses,
            (select count(*)::int from private.idempotency_keys) as keys`,
    [userId],
  );
  return { ...rows[0], wallet: await walletOf(pool, userId) };
}

describe('writing a buy request or a deposit straight to its table', () => {
  it.each(roles)('a buy request is refused for %s and nothing is stored', async (_role, actor) => {
    const before = await snapshot(owner.id);
    const error = await errorOf(
      queryAs(
        pool,
        actor(),
        `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 50)`,
        [owner.id],
      ),
    );
    expect(error).toEqual({ code: '42501', message: 'permission denied for table buy_requests' });
    expect(await snapshot(owner.id)).toEqual(before);
  });

  it.each(roles)('a deposit is refused for %s and the balance stays as it was', async (_role, actor) => {
    const before = await snapshot(owner.id);
    const error = await errorOf(
      queryAs(
        pool,
        actor(),
        `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 50, 'pending')`,
        [owner.id],
      ),
    );
    expect(error).toEqual({ code: '42501', message: 'permission denied for table transactions' });
    expect(await snapshot(owner.id)).toEqual(before);
  });
});

/** Each money RPC called without its key, with the record it would decide. */
const keylessCalls: [string, string, () => Promise<string>][] = [
  ['create_buy_request', `select public.create_buy_request('bitcoin', 50, null)`, async () => ''],
  ['create_deposit', `select public.create_deposit($1, 50, null)`, async () => owner.id],
  ['approve_buy_request', 'select public.approve_buy_request($1)', () => addBuyRequest(pool, owner.id, 50)],
  ['reject_buy_request', 'select public.reject_buy_request($1)', () => addBuyRequest(pool, owner.id, 50)],
  ['create_sell_request', `select public.create_sell_request('bitcoin', 0.001)`, async () => ''],
  ['approve_sell_request', 'select public.approve_sell_request($1)', () => addSellRequest(pool, owner.id)],
  ['reject_sell_request', 'select public.reject_sell_request($1)', () => addSellRequest(pool, owner.id)],
  [
    'set_withdraw_request_status',
    `select public.set_withdraw_request_status($1, 'approved')`,
    () => addWithdrawRequest(pool, owner.id, 50),
  ],
  [
    'set_transaction_status',
    `select public.set_transaction_status($1, 'complete')`,
    () => addPendingDeposit(pool, owner.id, 50),
  ],
];

/** The refusal each role reads: no grant for visitors and the service role, the admin check, then the key. */
function refusalFor(role: Role, rpc: string): { code: string; message: string } {
  if (role === 'anon' || role === 'the service role')
    return { code: '42501', message: `permission denied for function ${rpc}` };
  if (rpc === 'create_buy_request' || rpc === 'create_sell_request' || role === 'an admin')
    return { code: 'P0001', message: 'Idempotency key is required' };
  return { code: '42501', message: 'Only admins can do this' };
}

describe.each(keylessCalls)('%s without an idempotency key', (rpc, sql, addRecord) => {
  it.each(roles)('is refused for %s and changes nothing', async (role, actor) => {
    const recordId = await addRecord();
    const params = recordId === '' ? [] : [recordId];
    const before = await snapshot(owner.id);
    const error = await errorOf(queryAs(pool, actor(), sql, params));
    expect(error).toEqual(refusalFor(role, rpc));
    expect(await snapshot(owner.id)).toEqual(before);
  });
});

describe('the decisions behind the keyed RPCs', () => {
  it.each([
    ['private.approve_buy_request($1)', () => addBuyRequest(pool, owner.id, 50)],
    ['private.approve_sell_request($1)', () => addSellRequest(pool, owner.id)],
    ['private.set_transaction_status($1, $2)', () => addPendingDeposit(pool, owner.id, 50)],
  ])('%s is out of reach of every API role', async (call, addRecord) => {
    const recordId = await addRecord();
    const name = call.slice('private.'.length, call.indexOf('('));
    for (const [role, actor] of roles) {
      const params = call.includes('$2') ? [recordId, 'complete'] : [recordId];
      const error = await errorOf(queryAs(pool, actor(), `select ${call}`, params));
      // Visitors do not even see the schema; signed-in roles use its RLS helpers, but not these.
      const refused = role === 'anon' ? 'schema private' : `function ${name}`;
      expect(error).toEqual({ code: '42501', message: `permission denied for ${refused}` });
    }
  });
});
