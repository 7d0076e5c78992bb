import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, createUser, errorOf, onlyRow, queryAs, signedIn } from '../support/db';

let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

describe('sign-up makes a profile', () => {
  it('with role user, the full name of the sign-up form, a zero balance and the e-mail', async () => {
    const { id, email } = await createUser(pool, { fullName: '  Grace Hopper ' });
    const { rows } = await pool.query(
      'select email, full_name, role, balance::text, registration_date is not null as dated from public.profiles where id = $1',
      [id],
    );
    expect(rows).toEqual([{ email, full_name: 'Grace Hopper', role: 'user', balance: '0.00', dated: true }]);
  });

  it('with a unique bech32 wallet code of bc1 + 39 to 59 characters, of varying length', async () => {
    const ids = await Promise.all(
      Array.from({ length: 100 }, () => createUser(pool).then((user) => user.id)),
    );
    const { rows } = await pool.query<{ wallet_code: string }>(
      'select wallet_code from public.profiles where id = any($1::uuid[])',
      [ids],
    );
    const codes = rows.map((row) => row.wallet_code);
    expect(codes).toHaveLength(100);
    for (const code of codes) expect(code).toMatch(/^bc1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{39,59}$/);
    expect(new Set(codes).size).toBe(100);
    expect(new Set(codes.map((code) => code.length)).size).toBeGreaterThan(5);
  });

  it('follows a changed e-mail address', async () => {
    const { id } = await createUser(pool);
    await pool.query(`update auth.users set email = 'renamed-' || id || '@example.com' where id = $1`, [id]);
    const { rows } = await pool.query('select email from public.profiles where id = $1', [id]);
    expect(rows).toEqual([{ email: `renamed-${id}@example.com` }]);
  });

  it('lets a person change their own full name', async () => {
    const { id } = await createUser(pool);
    await queryAs(pool, signedIn(id), `update public.profiles set full_name = 'New Name' where id = $1`, [
      id,
    ]);
    const { rows } = await pool.query('select full_name from public.profiles where id = $1', [id]);
    expect(rows).toEqual([{ full_name: 'New Name' }]);
  });

  it('outlives the Auth user as a closed, nameless row keeping their books; refused while they hold money', async () => {
    const { id } = await createUser(pool, { deposit: 100 });
    expect((await errorOf(pool.query('delete from auth.users where id = $1', [id]))).message).toBe(
      'This person still holds 100 USD: pay it out before closing the account',
    );
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status) values ($1, 'withdraw', 100, 'complete')`,
      [id],
    );
    await pool.query('delete from auth.users where id = $1', [id]);
    const { rows } = await pool.query(
      `select (select count(*) from public.profiles where id = $1 and email is null and full_name is null
                 and closed_at is not null)::int as closed_profiles,
              (select count(*) from public.transactions where user_id = $1)::int as transactions`,
      [id],
    );
    expect(rows).toEqual([{ closed_profiles: 1, transactions: 2 }]);
  });
});

describe('seed', () => {
  it('has two admins with a factor each, the user with a completed deposit of $5,000, the limits and the status types', async () => {
    const { rows: people } = await pool.query(
      `select profiles.email, profiles.role, wallet.available::text
       from public.profiles join public.wallet_balances as wallet on wallet.user_id = profiles.id
       where profiles.email in ('admin@example.com', 'admin2@example.com', 'user@example.com')
       order by profiles.email`,
    );
    const { rows: factors } = await pool.query(
      `select users.email, factors.secret from auth.mfa_factors as factors join auth.users on users.id = factors.user_id
       where users.email like 'admin%@example.com' and factors.status = 'verified' order by users.email`,
    );
    expect(factors).toEqual([
      { email: 'admin2@example.com', secret: 'COINVAULTLOCALSECONDADMINTOTPKEY' },
      { email: 'admin@example.com', secret: 'COINVAULTLOCALADMINSECRETTOTPKEY' },
    ]);
    expect(people).toEqual([
      { email: 'admin2@example.com', role: 'admin', available: '0.00' },
      { email: 'admin@example.com', role: 'admin', available: '0.00' },
      { email: 'user@example.com', role: 'user', available: '5000.00' },
    ]);
    const { rows: limits } = await pool.query(
      'select min_amount::text, max_amount::text from public.transaction_limits',
    );
    expect(limits).toEqual([{ min_amount: '10', max_amount: '10000' }]);
    const { rows: statusTypes } = await pool.query(
      `select name from public.status_types where name in ('processing', 'cancelled') order by name`,
    );
    expect(statusTypes).toEqual([{ name: 'cancelled' }, { name: 'processing' }]);
  });

  it('stores passwords as bcrypt hashes with an email identity, as GoTrue expects', async () => {
    const { rows } = await pool.query(
      `select users.email,
              users.encrypted_password = extensions.crypt(split_part(users.email, '@', 1) || '-pass-123', users.encrypted_password) as password_matches,
              users.encrypted_password like '$2%' as bcrypt,
              exists (select 1 from auth.identities where user_id = users.id and provider = 'email') as has_identity
       from auth.users as users where users.email in ('admin@example.com', 'user@example.com') order by users.email`,
    );
    expect(rows).toEqual([
      { email: 'admin@example.com', password_matches: true, bcrypt: true, has_identity: true },
      { email: 'user@example.com', password_matches: true, bcrypt: true, has_identity: true },
    ]);
  });

  it('loads again without duplicates and without undoing what an admin changed', async () => {
    const { readFile } = await import('node:fs/promises');
    const seed = await readFile(new URL('../../supabase/seed.sql', import.meta.url), 'utf8');
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('update public.transaction_limits set min_amount = 20, max_amount = 500');
      await client.query(seed);
      const { rows } = await client.query(
        `select (select count(*) from auth.users where email in ('admin@example.com', 'user@example.com'))::int as users,
                (select count(*) from public.status_types where name in ('processing', 'cancelled'))::int as status_types,
                (select balance from public.profiles where email = 'user@example.com')::text as balance,
                (select max_amount from public.transaction_limits)::text as max_amount`,
      );
      expect(rows).toEqual([{ users: 2, status_types: 2, balance: '5000.00', max_amount: '500' }]);
    } finally {
      // The limits are shared with the other test files.
      await client.query('rollback');
      client.release();
    }
  });
});

describe('schema contracts', () => {
  it('every public table has row-level security on', async () => {
    const { rows } = await pool.query(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and not relrowsecurity`,
    );
    expect(rows).toEqual([]);
  });

  it('buy, sell and withdraw requests, transactions, notifications and second approvals are live (Realtime publication, full old rows)', async () => {
    const { rows } = await pool.query(
      `select tables.tablename::text, class.relreplident::text as identity
       from pg_publication_tables as tables
       join pg_class as class on class.oid = format('%I.%I', tables.schemaname, tables.tablename)::regclass
       where tables.pubname = 'supabase_realtime' and tables.schemaname = 'public' order by 1`,
    );
    expect(rows).toEqual([
      { tablename: 'buy_requests', identity: 'f' },
      { tablename: 'notifications', identity: 'f' },
      { tablename: 'second_approvals', identity: 'f' },
      { tablename: 'sell_requests', identity: 'f' },
      { tablename: 'transactions', identity: 'f' },
      { tablename: 'withdraw_requests', identity: 'f' },
    ]);
  });

  it('every RPC is security definer with an empty search path and no execute for visitors but the e-mail links and the published checkpoint', async () => {
    // A security e-mail's links ("this wasn't me", a new destination's cancel link) work signed out: after a
    // takeover the password may be the attacker's. The latest checkpoint's root is published to anyone
    // (docs/architecture.md, "Proof of liabilities").
    const visitorRpcs = new Set(['report_not_me', 'cancel_payout_destination', 'latest_ledger_checkpoint']);
    const { rows } = await pool.query<{
      name: string;
      definer: boolean;
      config: string[] | null;
      anon: boolean;
    }>(
      `select proname as name, prosecdef as definer, proconfig as config,
              has_function_privilege('anon', oid, 'execute') as anon
       from pg_proc where pronamespace = 'public'::regnamespace order by proname`,
    );
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'approve_buy_request',
        'create_withdraw_request',
        'reject_buy_request',
        'set_transaction_status',
        'set_withdraw_request_status',
      ]),
    );
    for (const row of rows)
      expect(row).toMatchObject({
        definer: true,
        config: ['search_path=""'],
        anon: visitorRpcs.has(row.name),
      });
  });

  it('every RPC names its arguments in the one style: plain snake_case, the JSON keys a client sends', async () => {
    const { rows } = await pool.query<{ argument: string }>(
      `select proname || '(' || name || ')' as argument
       from pg_proc, unnest(proargnames) as name
       where pronamespace = 'public'::regnamespace
         and (name !~ '^[a-z][a-z0-9]*(_[a-z0-9]+)*$' or name ~ '^p_')`,
    );
    expect(rows.map((row) => row.argument)).toEqual([]);
  });

  it('every table, view, function and policy of ours has a comment', async () => {
    const { rows } = await pool.query(
      `select 'relation ' || oid::regclass::text as object from pg_class
         where relnamespace = 'public'::regnamespace and relkind in ('r', 'v') and obj_description(oid, 'pg_class') is null
       union all
       select 'function ' || oid::regprocedure::text from pg_proc
         where pronamespace in ('public'::regnamespace, 'private'::regnamespace) and obj_description(oid, 'pg_proc') is null
       union all
       select 'policy ' || polname from pg_policy where obj_description(oid, 'pg_policy') is null`,
    );
    expect(rows).toEqual([]);
  });

  it("the person's transaction list is served by an index, newest first", async () => {
    const client = await pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain select * from public.transactions where user_id = '00000000-0000-4000-8000-00000000a0b1' order by date desc limit 20`,
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('transactions_user_id_date_idx');
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  });

  it("a wallet's balance always equals its ledger", async () => {
    const { rows } = await pool.query(
      `select profiles.id from public.profiles
       where balance <> coalesce((select sum(case when type in ('deposit', 'sell') then amount else -amount end)
                                   from public.transactions where user_id = profiles.id and status = 'complete'), 0)`,
    );
    expect(rows).toEqual([]);
    expect(
      onlyRow((await pool.query('select count(*)::int as n from public.profiles')).rows).n,
    ).toBeGreaterThan(0);
  });
});
