import type pg from 'pg';
import { inTransaction } from './database';

/**
 * Bench data loaded as the database operator: people signed up an hour apart (so the newest-first user
 * list has an order), then rows written with triggers off for speed, and the balances set from the
 * ledger once at the end, as the ledger trigger would have left them.
 */
export async function loadBenchData(
  db: pg.Pool,
  { people, transactions }: { people: number; transactions: number },
  /** More rows for the bench's own tables, written in the same transaction with triggers off. */
  loadMore: (client: pg.PoolClient, personIds: string[]) => Promise<void> = async () => undefined,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated', 'bench-' || n || '@example.com',
            jsonb_build_object('full_name', 'Bench Person ' || n), now() - make_interval(hours => n), now()
     from generate_series(1, $1::int) as n
     returning id`,
    [people],
  );
  const personIds = rows.map((row) => row.id);
  await inTransaction(db, async (client) => {
    await client.query('set local session_replication_role = replica');
    // Deposits large enough that most ledgers stay above zero; a pending tenth, as real queues have.
    await client.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, date)
       select ($1::uuid[])[1 + n % $2::int],
              kinds.type,
              case when kinds.type = 'deposit' then 500 + n % 500 else 1 + n % 20 end,
              case when n % 10 = 0 then 'pending' else 'complete' end,
              case when kinds.type = 'buy' then 'bitcoin' end,
              now() - make_interval(mins => n)
       from generate_series(1, $3::int) as n
       cross join lateral (
         select (array['deposit', 'buy', 'sell', 'withdraw'])[1 + (n / 7) % 4]::public.transaction_type as type
       ) as kinds`,
      [personIds, people, transactions],
    );
    await loadMore(client, personIds);
    await client.query(
      `update public.profiles set balance = greatest(0, coalesce((
         select sum(case when type in ('deposit', 'sell') then amount else -amount end)
         from public.transactions where user_id = profiles.id and status = 'complete'), 0))`,
    );
  });
  await db.query('vacuum analyze');
  return personIds;
}
