import { escapeLiteral, type ClientBase } from 'pg';
import { addCurrentPrice } from './db';

/**
 * A queue of pending buy requests and the admins who decide them, written straight into a database
 * prepared with our migrations. Shared by the crash-safety test and the approval benchmark.
 */
export interface ApprovalWorkload {
  adminIds: string[];
  userIds: string[];
  /** Pending buy requests, in the order they were filed. */
  requestIds: string[];
}

export interface ApprovalWorkloadOptions {
  admins: number;
  users: number;
  requestsPerUser: number;
  /** Completed deposit each user starts with (USD). */
  deposit: number;
  /** USD amount of a user's n-th request (0-based), within the limits of the database. */
  requestAmount: (requestIndex: number) => number;
  /** Makes e-mail addresses unique when several workloads share one database. */
  label: string;
}

type Queryable = Pick<ClientBase, 'query'>;

/** Auth users (the sign-up trigger makes their profiles); admins are promoted as a database operator would. */
async function createPeople(db: Queryable, count: number, label: string, kind: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated', $1 || '-' || $2 || '-' || n || '@example.com',
            jsonb_build_object('full_name', initcap($2) || ' ' || n), now(), now()
     from generate_series(1, $3::int) as n
     returning id`,
    [label, kind, count],
  );
  return rows.map((row) => row.id);
}

export async function createApprovalWorkload(
  db: Queryable,
  options: ApprovalWorkloadOptions,
): Promise<ApprovalWorkload> {
  const adminIds = await createPeople(db, options.admins, options.label, 'admin');
  await db.query(`update public.profiles set role = 'admin' where id = any($1::uuid[])`, [adminIds]);
  const userIds = await createPeople(db, options.users, options.label, 'user');
  await db.query(
    `insert into public.transactions (user_id, type, amount, status)
     select id, 'deposit', $2, 'complete' from unnest($1::uuid[]) as id`,
    [userIds, options.deposit],
  );
  // The current price every approval fills at.
  await addCurrentPrice(db, 'bitcoin', 50_000);
  const amounts = Array.from({ length: options.requestsPerUser }, (_, index) => options.requestAmount(index));
  // One row per (request index, user), so the queue interleaves users the way real traffic would.
  const { rows } = await db.query<{ id: string }>(
    `insert into public.buy_requests (user_id, cryptocurrency, amount, date)
     select users.id, 'bitcoin', amounts.amount,
            now() - make_interval(secs => amounts.position * 1000 + users.position)
     from unnest($2::numeric[]) with ordinality as amounts(amount, position)
     cross join unnest($1::uuid[]) with ordinality as users(id, position)
     order by amounts.position, users.position
     returning id`,
    [userIds, amounts],
  );
  return { adminIds, userIds, requestIds: rows.map((row) => row.id) };
}

/**
 * Calls `approve_buy_request` (with a fresh idempotency key, as the admin's Apply sends) as PostgREST does
 * for a signed-in admin: one transaction with the
 * `authenticated` role and the admin's JWT claims, so row-level security and the RPC's checks apply.
 * The statements travel in one message (one round trip, as PostgREST pipelines them); Postgres runs
 * such a message as one implicit transaction and rolls all of it back if the call fails.
 */
export async function approveAsAdmin(db: Queryable, adminId: string, requestId: string): Promise<void> {
  // Admins work at aal2: the token of an admin who verified their code.
  const claims = JSON.stringify({ sub: adminId, role: 'authenticated', aud: 'authenticated', aal: 'aal2' });
  await db.query(
    `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${escapeLiteral(claims)}, true);
     select public.approve_buy_request(${escapeLiteral(requestId)}::uuid, gen_random_uuid())`,
  );
}

export interface MoneyInvariants {
  negativeBalances: number;
  /** Profiles whose balance differs from the sum of their completed ledger entries. */
  ledgerMismatches: number;
  /** Buy requests settled by more than one buy transaction. */
  approvedTwice: number;
  /** Approved requests without their buy transaction, or buy transactions of requests not approved. */
  halfApplied: number;
}

export async function readMoneyInvariants(db: Queryable): Promise<MoneyInvariants> {
  const { rows } = await db.query<Record<keyof MoneyInvariants, number>>(
    `select
       (select count(*)::int from public.profiles where balance < 0) as "negativeBalances",
       (select count(*)::int from public.profiles
         where balance <> coalesce((
           select sum(case
                        when t.status <> 'complete' then 0
                        when t.type in ('deposit', 'sell') then t.amount
                        else -t.amount
                      end)
           from public.transactions t where t.user_id = profiles.id), 0)) as "ledgerMismatches",
       (select count(*)::int from (
          select buy_request_id from public.transactions
          where type = 'buy' and buy_request_id is not null
          group by buy_request_id having count(*) > 1) as twice) as "approvedTwice",
       (select count(*)::int from public.buy_requests r
         where (r.status = 'approved') <> exists (
           select 1 from public.transactions t
           where t.buy_request_id = r.id and t.type = 'buy' and t.status = 'complete' and t.amount = r.amount))
         as "halfApplied"`,
  );
  const [invariants] = rows;
  if (!invariants) throw new Error('The invariant query returned no row');
  return invariants;
}
