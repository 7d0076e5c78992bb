-- Cheaper verification and checkpoints (bench/ledger.bench.ts), same results:
-- - ledger.chain_differences reads the chain once (it was materialised and scanned three times) and sorts in
--   memory (work_mem 64 MB for this function only: the million-entry verification spilled to disk);
-- - ledger.create_checkpoint sums postings per account before joining the accounts, writes the leaves and level
--   0 in one statement, and builds each upper level with lead() over one ordered scan instead of a self-join
--   probed per pair (whose plan, on a fresh table's statistics, could turn into a nested loop of seq scans);
-- - ledger.append_entry computes what does not depend on the chain's position (the corrected entry, the
--   accounts, the postings' canonical text) before it takes the head's lock, so the lock is held for less.

create or replace function ledger.chain_differences(p_after_seq bigint, p_after_hash bytea)
returns setof ledger.difference
language sql
stable
set search_path = ''
set work_mem = '64MB'
as $$
  -- The canonical form written out here rather than through ledger.canonical_entry and canonical_posting:
  -- a SQL function with its own search_path is never inlined, and calling three per entry made a million
  -- entries take minutes. The reconciliation of an honest journal (tests/db/ledger.test.ts) holds the two equal.
  -- One pass: the chain is read once and only its broken links are expanded into findings.
  with legs as (
    select entry_seq,
      '[' || string_agg('[' || to_json(account)::text || ',' || to_json(currency)::text || ','
        || to_json(trim_scale(amount)::text)::text || ']', ',' order by position) || ']' as postings
    from ledger.postings
    where entry_seq > p_after_seq
    group by entry_seq
  ),
  chain as (
    select
      entries.seq,
      entries.prev_hash,
      entries.hash,
      coalesce(lag(entries.seq) over ordered, p_after_seq) as previous_seq,
      coalesce(lag(entries.hash) over ordered, p_after_hash) as previous_hash,
      sha256(convert_to('["coinvault-ledger-entry-v1",' || entries.seq || ',"' || encode(entries.prev_hash, 'hex')
        || '","' || to_char(entries.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '",'
        || coalesce(to_json(entries.transaction_id::text)::text, 'null') || ','
        || coalesce(to_json(entries.transaction_type::text)::text, 'null') || ','
        || to_json(entries.transaction_status)::text || ',' || coalesce(entries.corrects::text, 'null') || ','
        || coalesce(legs.postings, '[]') || ']', 'UTF8')) as computed_hash
    from ledger.entries
    left join legs on legs.entry_seq = entries.seq
    where entries.seq > p_after_seq
    window ordered as (order by entries.seq)
  ),
  last_entry as (
    select seq, hash from ledger.entries where seq > p_after_seq order by seq desc limit 1
  )
  select finding.*
  from chain
  cross join lateral (
    select 'chain: entries missing', chain.seq, 'entries ' || (chain.previous_seq + 1) || ' to ' || (chain.seq - 1),
      'entry ' || (chain.previous_seq + 1) || ' after entry ' || chain.previous_seq, 'entry ' || chain.seq
    where chain.seq <> chain.previous_seq + 1
    union all
    select 'chain: previous hash differs', chain.seq, 'entry ' || chain.seq, encode(chain.previous_hash, 'hex'),
      encode(chain.prev_hash, 'hex')
    where chain.seq = chain.previous_seq + 1 and chain.prev_hash <> chain.previous_hash
    union all
    select 'chain: hash differs from contents', chain.seq, 'entry ' || chain.seq, encode(chain.computed_hash, 'hex'),
      encode(chain.hash, 'hex')
    where chain.hash <> chain.computed_hash
  ) as finding ("check", entry, subject, expected, found)
  where chain.seq <> chain.previous_seq + 1 or chain.prev_hash <> chain.previous_hash
    or chain.hash <> chain.computed_hash
  union all
  select 'chain: head differs from last entry', head.seq, 'head',
    coalesce(last_entry.seq, p_after_seq) || ' ' || encode(coalesce(last_entry.hash, p_after_hash), 'hex'),
    head.seq || ' ' || encode(head.hash, 'hex')
  from ledger.head
  left join last_entry on true
  where (head.seq, head.hash) is distinct from (coalesce(last_entry.seq, p_after_seq), coalesce(last_entry.hash, p_after_hash));
$$;

create or replace function ledger.create_checkpoint(p_created_by uuid) returns bigint
language plpgsql
security definer
set search_path = ''
set work_mem = '64MB'
as $$
declare
  head ledger.head;
  new_checkpoint bigint;
  checkpoint_currencies text[];
  level_size integer;
  tree_level smallint := 0;
  root ledger.checkpoint_nodes;
begin
  -- Entries up to the head read here are all committed (the head moves in the writer's transaction), so
  -- the checkpoint needs no lock and writers go on meanwhile.
  select * into head from ledger.head;
  select coalesce(array_agg(currency order by currency collate "C"), '{}') into checkpoint_currencies
  from (select distinct currency from ledger.accounts where kind = 'person') as held;
  -- The checkpoint row is written last, complete (nothing in the journal is ever updated): its leaves and
  -- nodes name its id first, under foreign keys checked at commit.
  new_checkpoint := nextval(pg_catalog.pg_get_serial_sequence('ledger.checkpoints', 'id'));

  -- One pass from the postings to the leaves: each account's postings summed first (100,000 groups, not a
  -- join of every posting), the leaves written and hashed into level 0 in the same statement.
  -- Leaf: SHA-256 of ["coinvault-liability-leaf-v1", checkpoint id, person id, salt hex, [balances]]; node:
  -- of ["coinvault-liability-node-v1", left hex, right hex, [sums]]. Written out in the statements rather than
  -- as helper functions: a SQL function with its own search_path is never inlined. Amounts are kept trimmed
  -- (trim_scale), so to_json(amounts::text[]) is their canonical text; tests/db/ledger.test.ts verifies the
  -- trees with the documented hashes.
  with owed as (
    select accounts.owner_id, accounts.currency, -sum(postings.amount) as balance
    from (
      select account, sum(amount) as amount from ledger.postings
      where entry_seq <= head.seq group by account
    ) as postings
    join ledger.accounts on accounts.name = postings.account
    where accounts.kind = 'person'
    group by accounts.owner_id, accounts.currency
  ),
  people as (
    select persons.owner_id, extensions.gen_random_bytes(32) as salt,
      array_agg(trim_scale(coalesce(owed.balance, 0)) order by currencies.position) as balances
    from (select distinct owner_id from ledger.accounts where kind = 'person') as persons
    cross join unnest(checkpoint_currencies) with ordinality as currencies (currency, position)
    left join owed on owed.owner_id = persons.owner_id and owed.currency = currencies.currency
    group by persons.owner_id
  ),
  leaves as (
    insert into ledger.checkpoint_leaves (checkpoint_id, position, person_id, salt, balances)
    select new_checkpoint, (row_number() over (order by people.salt) - 1)::integer, people.owner_id, people.salt,
      people.balances
    from people
    returning position, person_id, salt, balances
  )
  insert into ledger.checkpoint_nodes (checkpoint_id, level, position, hash, sums)
  select new_checkpoint, 0, position,
    sha256(convert_to('["coinvault-liability-leaf-v1",' || new_checkpoint || ',"' || person_id || '","'
      || encode(salt, 'hex') || '",' || to_json(balances::text[])::text || ']', 'UTF8')),
    balances
  from leaves;
  get diagnostics level_size = row_count;

  -- Each level from the one below in one ordered scan: a node and its right sibling side by side (lead), no
  -- lookup per pair, so the plan does not hinge on the new level's row estimates.
  while level_size > 1 loop
    insert into ledger.checkpoint_nodes (checkpoint_id, level, position, hash, sums)
    select new_checkpoint, tree_level + 1, pairs.position / 2,
      case when pairs.right_hash is null then pairs.left_hash
        else sha256(convert_to('["coinvault-liability-node-v1","' || encode(pairs.left_hash, 'hex') || '","'
          || encode(pairs.right_hash, 'hex') || '",' || to_json(pairs.sums::text[])::text || ']', 'UTF8')) end,
      pairs.sums
    from (
      select level_nodes.position, level_nodes.left_hash, level_nodes.right_hash,
        case when level_nodes.right_hash is null then level_nodes.left_sums
          else array(select trim_scale(left_sum + right_sum)
            from unnest(level_nodes.left_sums, level_nodes.right_sums) with ordinality as sums (left_sum, right_sum, position)
            order by sums.position) end as sums
      from (
        select position, hash as left_hash, sums as left_sums,
          lead(hash) over siblings as right_hash, lead(sums) over siblings as right_sums
        from ledger.checkpoint_nodes
        where checkpoint_id = new_checkpoint and level = tree_level
        window siblings as (order by position)
      ) as level_nodes
      where level_nodes.position % 2 = 0
    ) as pairs;
    get diagnostics level_size = row_count;
    tree_level := tree_level + 1;
  end loop;

  select * into root from ledger.checkpoint_nodes
  where checkpoint_nodes.checkpoint_id = new_checkpoint and level = tree_level;
  insert into ledger.checkpoints
    (id, created_by, head_seq, head_hash, currencies, totals, people, root_hash)
  overriding system value
  values (
    new_checkpoint, p_created_by, head.seq, head.hash, checkpoint_currencies,
    coalesce(root.sums, array_fill(0::numeric, array[cardinality(checkpoint_currencies)])),
    (select count(*) from ledger.checkpoint_leaves
      where checkpoint_leaves.checkpoint_id = new_checkpoint),
    coalesce(root.hash, decode(repeat('00', 32), 'hex'))
  );
  return new_checkpoint;
end;
$$;

comment on function ledger.chain_differences(bigint, bytea) is
  'Verifies the chain after an entry whose seq and hash are trusted (0 and 32 zero bytes: from genesis): gapless '
  'seq, each entry naming its predecessor''s hash, each hash matching its canonical form, the head at the last.';
comment on function ledger.create_checkpoint(uuid) is
  'Builds a checkpoint at the current head: salts and leaves for every person with an account, the Merkle sum tree '
  'level by level, the root and totals. Answers its id.';

-- Appends one entry under the head's row lock: the lock is held to commit, so seq stays gapless (a rolled
-- back writer leaves the head as it was) and the chain is one line. What does not depend on the entry's place
-- in the chain is done before the lock: the entry it corrects (the transactions row is locked by this writer
-- until commit, so no other entry of it can be written meanwhile), the accounts, the postings' canonical text.
create or replace function ledger.append_entry(
  p_transaction_id uuid,
  p_transaction_type public.transaction_type,
  p_transaction_status text,
  p_accounts text[],
  p_currencies text[],
  p_amounts numeric[]
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  next_seq bigint;
  correcting bigint;
  postings_text text := ledger.canonical_postings(p_accounts, p_currencies, p_amounts);
  new_hash bytea;
begin
  if p_transaction_id is not null then
    select max(seq) into correcting from ledger.entries where transaction_id = p_transaction_id;
  end if;
  insert into ledger.accounts (name, owner_id, kind, currency)
  select
    legs.account,
    case when legs.account like 'person:%' then split_part(legs.account, ':', 2)::uuid end,
    case when legs.account like 'person:%' then 'person' else split_part(legs.account, ':', 2) end,
    legs.currency
  from unnest(p_accounts, p_currencies) as legs (account, currency)
  on conflict (name) do nothing;

  select * into head from ledger.head for update;
  next_seq := head.seq + 1;
  new_hash := ledger.entry_hash(ledger.canonical_entry(
    next_seq, head.hash, now(), p_transaction_id, p_transaction_type, p_transaction_status, correcting,
    postings_text
  ));
  insert into ledger.entries
    (seq, recorded_at, transaction_id, transaction_type, transaction_status, corrects, prev_hash, hash)
  values
    (next_seq, now(), p_transaction_id, p_transaction_type, p_transaction_status, correcting, head.hash, new_hash);
  insert into ledger.postings (entry_seq, position, account, currency, amount)
  select next_seq, legs.position, legs.account, legs.currency, legs.amount
  from unnest(p_accounts, p_currencies, p_amounts) with ordinality as legs (account, currency, amount, position);
  update ledger.head set seq = next_seq, hash = new_hash;
  return next_seq;
end;
$$;
