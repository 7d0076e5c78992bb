import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { newTotpSecret } from '../../devstack/src/gateway/auth/totp';

/**
 * Database helpers for tests: act as an API role exactly the way PostgREST runs a request (one
 * transaction, `set local role`, the JWT claims in `request.jwt.claims`), and set up people and
 * money as the database operator (superuser) would.
 */

/** Authenticator assurance level: `aal1` after the password, `aal2` once a TOTP code was verified too. */
export type Aal = 'aal1' | 'aal2';

export type Actor =
  | { role: 'anon' }
  | { role: 'authenticated'; userId: string; email?: string; aal?: Aal }
  | { role: 'service_role' };

export const anon: Actor = { role: 'anon' };
export const serviceRole: Actor = { role: 'service_role' };
/**
 * A person who finished signing in: at `aal2` when they have a verified factor (every admin made by
 * `createUser` has one), else `aal1`, as Auth's token would say.
 */
export const signedIn = (userId: string): Actor => ({ role: 'authenticated', userId });
/** A person signed in with the password only, before (or without) the code step: refusal tests for admins. */
export const signedInWithPasswordOnly = (userId: string): Actor => ({
  role: 'authenticated',
  userId,
  aal: 'aal1',
});

type Queryable = Pick<pg.ClientBase, 'query'>;

export function connect(databaseUrl: string, maxConnections = 10): pg.Pool {
  return new pg.Pool({ connectionString: databaseUrl, max: maxConnections });
}

async function claimsOf(db: Queryable, actor: Actor) {
  if (actor.role !== 'authenticated') return { role: actor.role };
  const aal = actor.aal ?? ((await hasVerifiedFactor(db, actor.userId)) ? 'aal2' : 'aal1');
  const timestamp = Math.floor(Date.now() / 1000);
  const amr = [...(aal === 'aal2' ? ['totp'] : []), 'password'].map((method) => ({ method, timestamp }));
  return { sub: actor.userId, role: 'authenticated', aud: 'authenticated', email: actor.email, aal, amr };
}

async function hasVerifiedFactor(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ verified: boolean }>(
    `select exists (select 1 from auth.mfa_factors where user_id = $1 and status = 'verified') as verified`,
    [userId],
  );
  return rows[0]?.verified ?? false;
}

export interface ActOptions {
  /** Roll back instead of committing, so a probe leaves the shared database as it was. */
  rollback?: boolean;
}

/** Runs `work` as PostgREST would run a request by `actor`; commits unless told to roll back. */
export async function actAs<T>(
  pool: pg.Pool,
  actor: Actor,
  work: (db: Queryable) => Promise<T>,
  { rollback = false }: ActOptions = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const claims = await claimsOf(client, actor);
    await client.query(`set local role ${actor.role}`);
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
    const result = await work(client);
    await client.query(rollback ? 'rollback' : 'commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** One statement as `actor`, committed (or rolled back): the rows it returned. */
export async function queryAs<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: pg.Pool,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
  options: ActOptions = {},
): Promise<pg.QueryResult<Row>> {
  return actAs(pool, actor, (db) => db.query<Row>(sql, params), options);
}

/** The single row a statement must have returned. */
export function onlyRow<Row>(rows: Row[]): Row {
  const [row] = rows;
  if (rows.length !== 1 || row === undefined) throw new Error(`expected exactly one row, got ${rows.length}`);
  return row;
}

export interface CreatedUser {
  id: string;
  email: string;
}

export interface NewUser {
  fullName?: string;
  /** Made admin afterwards, as a database operator does; sign-up itself always makes a user. Admins get a factor. */
  admin?: boolean;
  /**
   * A verified TOTP factor (admins always have one), set up long enough ago that its withdrawal hold is over:
   * `signedIn` is then at aal2.
   */
  twoFactor?: boolean;
  /** Extra sign-up metadata (raw_user_meta_data), e.g. to try to smuggle in a role. */
  metadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  /** A completed deposit the person starts with (USD). */
  deposit?: number;
  /** An address nobody proved (sign-up with confirmations on, link not yet opened); confirmed otherwise. */
  unconfirmedEmail?: boolean;
}

/** Inserts an Auth user as GoTrue does (the sign-up trigger makes the profile). */
export async function createUser(db: Queryable, options: NewUser = {}): Promise<CreatedUser> {
  const id = randomUUID();
  const email = `${id}@test.example.com`;
  await db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, raw_user_meta_data, raw_app_meta_data,
       created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, case when $5 then null else now() end, $3, $4, now(), now())`,
    [
      id,
      email,
      { full_name: options.fullName ?? 'Test Person', ...options.metadata },
      { provider: 'email', providers: ['email'], ...options.appMetadata },
      options.unconfirmedEmail ?? false,
    ],
  );
  if (options.admin) await db.query(`update public.profiles set role = 'admin' where id = $1`, [id]);
  if (options.admin || options.twoFactor) {
    await addVerifiedFactor(db, id);
    // The factor was set up before the test began: its withdrawal hold (tests/db/security-hold.test.ts) is over.
    await db.query(
      `update private.security_holds set changed_at = changed_at - interval '30 days' where user_id = $1`,
      [id],
    );
  }
  if (options.deposit !== undefined) await addDeposit(db, id, options.deposit);
  return { id, email };
}

/** A new password, written as GoTrue's `PUT /user` writes it (a bcrypt-shaped hash). */
export async function changePassword(db: Queryable, userId: string): Promise<void> {
  await db.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [
    userId,
    `$2a$10$${randomUUID()}`,
  ]);
}

/** A verified TOTP factor as Auth stores one after enrolment; answers its secret. */
export async function addVerifiedFactor(db: Queryable, userId: string): Promise<string> {
  const secret = newTotpSecret();
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values (gen_random_uuid(), $1, 'Test authenticator', 'totp', 'verified', now(), now(), $2)`,
    [userId, secret],
  );
  return secret;
}

/** A completed deposit, written as the database operator (the API only allows pending ones). */
export async function addDeposit(db: Queryable, userId: string, amount: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', $2, 'complete')
     returning id`,
    [userId, amount],
  );
  return onlyRow(rows).id;
}

/**
 * A pending buy request, written as the database operator, with a current price for its coin (an approval
 * needs one, as the market function keeps while anyone watches prices).
 */
export async function addBuyRequest(
  db: Queryable,
  userId: string,
  amount: number,
  cryptocurrency = 'bitcoin',
): Promise<string> {
  await addCurrentPrice(db, cryptocurrency, 50_000);
  const { rows } = await db.query<{ id: string }>(
    `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, $2, $3) returning id`,
    [userId, cryptocurrency, amount],
  );
  return onlyRow(rows).id;
}

/**
 * A pending sell request of coins the person holds (a settled buy of them is written first), with a current
 * price for its coin, all written as the database operator.
 */
export async function addSellRequest(
  db: Queryable,
  userId: string,
  quantity = 0.001,
  cryptocurrency = 'bitcoin',
): Promise<string> {
  await addCurrentPrice(db, cryptocurrency, 50_000);
  await db.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'buy', 0.01, 'complete', $2, $3, 1)`,
    [userId, cryptocurrency, quantity],
  );
  const { rows } = await db.query<{ id: string }>(
    `insert into public.sell_requests (user_id, cryptocurrency, quantity) values ($1, $2, $3) returning id`,
    [userId, cryptocurrency, quantity],
  );
  return onlyRow(rows).id;
}

/**
 * This minute's price snapshot of a coin, written as the database operator. It replaces a snapshot of this
 * minute already there: another file's call of the market function records the simulator's price (bitcoin
 * near 95,000 USD), and a test that expects to trade at its own price must not trade at that one.
 */
export async function addCurrentPrice(db: Queryable, cryptocurrency: string, price: number | string) {
  await db.query(
    `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
     values ($1, $2, date_trunc('minute', now()), false)
     on conflict (cryptocurrency, captured_at) do update set price = excluded.price`,
    [cryptocurrency, price],
  );
}

/** A price snapshot of a coin taken `minutesAgo` minutes ago (this minute by default), written as the operator. */
export async function addPriceSnapshot(db: Queryable, cryptocurrency: string, price: string, minutesAgo = 0) {
  await db.query(
    `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
     values ($1, $2, date_trunc('minute', now()) - make_interval(mins => $3), false)`,
    [cryptocurrency, price, minutesAgo],
  );
}

/** A pending deposit, as an admin's deposit form leaves it, written as the database operator. */
export async function addPendingDeposit(db: Queryable, userId: string, amount: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', $2, 'pending')
     returning id`,
    [userId, amount],
  );
  return onlyRow(rows).id;
}

/** A pending bank withdrawal (no details: they are not what these tests are about), written as the operator. */
export async function addWithdrawRequest(db: Queryable, userId: string, amount: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.withdraw_requests (user_id, amount, withdraw_method) values ($1, $2, 'bank') returning id`,
    [userId, amount],
  );
  return onlyRow(rows).id;
}

export interface WithdrawalCall {
  amount: number | string;
  method?: string;
  encryptedData?: string;
  /** The user id the caller claims; the signed-in person's own unless an attack says otherwise. */
  claimedUserId?: string;
  idempotencyKey?: string;
  detailsDigest?: string;
  /** A saved destination of the address book the withdrawal pays. */
  payoutDestinationId?: string;
}

/**
 * An Auth session of `actor` as GoTrue keeps it (at the actor's aal), without its sign-in notice (not what
 * these tests are about): what the withdrawals function passes to `create_withdraw_request`.
 */
export async function addSession(pool: pg.Pool, actor: Actor & { role: 'authenticated' }): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { aal } = (await claimsOf(client, actor)) as { aal: Aal };
    await client.query('set local session_replication_role = replica');
    const { rows } = await client.query<{ id: string }>(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (gen_random_uuid(), $1, now(), now(), $2)
       returning id`,
      [actor.userId, aal],
    );
    await client.query('commit');
    return onlyRow(rows).id;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * `create_withdraw_request` as the withdrawals function calls it for a signed-in actor: with the service role,
 * the person's id and their Auth session (at the actor's aal), a request id chosen before encryption, key
 * version 1 and a fresh idempotency key unless one is given. Any other actor calls it directly.
 */
export async function createWithdrawRequest(pool: pg.Pool, actor: Actor, call: WithdrawalCall) {
  const signedInActor = actor.role === 'authenticated' ? actor : null;
  const sessionId = signedInActor ? await addSession(pool, signedInActor) : null;
  return queryAs<{ id: string; user_id: string; amount: string; status: string }>(
    pool,
    signedInActor ? serviceRole : actor,
    'select * from public.create_withdraw_request($1, $2, $3, $4, $5, $6, 1::smallint, $7, $8, $9)',
    [
      randomUUID(),
      call.claimedUserId ?? signedInActor?.userId ?? null,
      sessionId,
      call.amount,
      call.method ?? 'bank',
      call.encryptedData ?? 'iv.data.key',
      call.detailsDigest ?? 'digest',
      call.idempotencyKey ?? randomUUID(),
      call.payoutDestinationId ?? null,
    ],
  );
}

export interface Wallet {
  balance: number;
  reserved: number;
  available: number;
  /** The ledger recomputed from transactions, to compare with the balance the trigger keeps. */
  ledger: number;
}

export async function walletOf(db: Queryable, userId: string): Promise<Wallet> {
  const { rows } = await db.query<Record<keyof Wallet, string>>(
    `select wallet.balance, wallet.reserved, wallet.available,
            coalesce((select sum(case when type in ('deposit', 'sell') then amount else -amount end)
                      from public.transactions where user_id = $1 and status = 'complete'), 0) as ledger
     from public.wallet_balances as wallet where wallet.user_id = $1`,
    [userId],
  );
  const row = onlyRow(rows);
  return {
    balance: Number(row.balance),
    reserved: Number(row.reserved),
    available: Number(row.available),
    ledger: Number(row.ledger),
  };
}

export interface Settled {
  succeeded: number;
  failures: string[];
}

/** Starts every call at once and counts what succeeded, with the messages of what failed. */
export async function race(calls: (() => Promise<unknown>)[]): Promise<Settled> {
  const results = await Promise.allSettled(calls.map((call) => call()));
  return {
    succeeded: results.filter((result) => result.status === 'fulfilled').length,
    failures: results.flatMap((result) =>
      result.status === 'rejected' ? [(result.reason as Error).message] : [],
    ),
  };
}

/** The error a statement raised (its Postgres code and message), or a failure when it succeeded. */
export async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof pg.DatabaseError) return { code: error.code ?? '', message: error.message };
    throw error;
  }
  throw new Error('expected the statement to be refused, but it succeeded');
}

/**
 * Everything of a person's money an attack could change, read as the operator: the balance, every ledger
 * entry, every request's status and the coins held. Equal before and after means nothing moved.
 */
export async function moneyStateOf(db: Queryable, userId: string): Promise<unknown> {
  const { rows } = await db.query<{ state: unknown }>(
    `select jsonb_build_object(
       'balance', (select balance from public.profiles where id = $1),
       'ledger', (select coalesce(jsonb_agg(jsonb_build_array(id, type, amount, status, quantity) order by id), '[]')
                  from public.transactions where user_id = $1),
       'buy_requests', (select coalesce(jsonb_agg(jsonb_build_array(id, status) order by id), '[]')
                        from public.buy_requests where user_id = $1),
       'sell_requests', (select coalesce(jsonb_agg(jsonb_build_array(id, status) order by id), '[]')
                         from public.sell_requests where user_id = $1),
       'withdraw_requests', (select coalesce(jsonb_agg(jsonb_build_array(id, status) order by id), '[]')
                             from public.withdraw_requests where user_id = $1),
       'holdings', (select coalesce(jsonb_agg(jsonb_build_array(cryptocurrency, quantity) order by cryptocurrency), '[]')
                    from public.holdings where user_id = $1)
     ) as state`,
    [userId],
  );
  return onlyRow(rows).state;
}
