-- Sealing after commit (docs/architecture.md, "The journal"): a writer no longer waits for the chain's head.
-- Its entry is still written in the same database transaction as its change and checked to balance there;
-- when the head's lock is free it takes it (skip locked) and seals the queued entries and its own, else it
-- queues its entry unsealed and commits without waiting, so writers share WAL flushes. ledger.seal (the
-- schedule, the reconciliation, checkpoints, tests) seals whatever is committed.

-- Double entry, checked where an entry is written: each currency's amounts sum to zero.
create function ledger.sums_to_zero(p_currencies text[], p_amounts numeric[]) returns boolean
language sql
immutable
set search_path = ''
as $$
  select cardinality(p_currencies) = cardinality(p_amounts) and cardinality(p_amounts) > 0
    and not exists (
      select from unnest(p_currencies, p_amounts) as legs (currency, amount)
      group by legs.currency
      having sum(legs.amount) <> 0
    );
$$;
comment on function ledger.sums_to_zero(text[], numeric[]) is
  'Whether postings (currency and amount, side by side) sum to zero in each currency: an entry balances.';

-- Entries committed but not yet in the chain: a writer that finds the head's lock taken appends here instead of
-- waiting, and the next holder of the lock seals them (ledger.seal_queued).
create table ledger.unsealed_entries (
  id bigint generated always as identity primary key,
  recorded_at timestamptz not null default now(),
  transaction_id uuid,
  transaction_type public.transaction_type,
  transaction_status text not null,
  accounts text[] not null,
  currencies text[] not null,
  amounts numeric[] not null,
  constraint unsealed_entries_balanced check (
    cardinality(accounts) = cardinality(amounts) and ledger.sums_to_zero(currencies, amounts)
  )
);
comment on table ledger.unsealed_entries is
  'Entries written (in the same database transaction as their change) but not yet sealed: no seq, no hash. The '
  'sealer moves them into entries and postings in id order and deletes them here, in one transaction.';
comment on column ledger.unsealed_entries.id is
  'Append order. An entry written after another committed has a higher id, so sealing by id keeps that order.';
comment on column ledger.unsealed_entries.recorded_at is 'The start of the database transaction that wrote the entry.';
comment on column ledger.unsealed_entries.transaction_id is 'The public.transactions row whose change this records.';
comment on column ledger.unsealed_entries.transaction_type is 'deposit, buy, sell or withdraw.';
comment on column ledger.unsealed_entries.transaction_status is 'The row''s status after the change; deleted when removed.';
comment on column ledger.unsealed_entries.accounts is 'The postings'' accounts, in the canonical order.';
comment on column ledger.unsealed_entries.currencies is 'The postings'' currencies, beside accounts.';
comment on column ledger.unsealed_entries.amounts is 'The postings'' amounts (debit > 0, credit < 0), beside accounts.';
alter table ledger.unsealed_entries enable row level security;
revoke all on table ledger.unsealed_entries from anon, authenticated, service_role;
grant select on table ledger.unsealed_entries to authenticated;
create policy "Admins can read the journal" on ledger.unsealed_entries for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.unsealed_entries is
  'Admins read the entries awaiting seal; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.unsealed_entries as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.unsealed_entries is
  'The journal, like every admin table, needs a second factor.';

create function ledger.open_accounts(p_accounts text[], p_currencies text[]) returns void
language sql
security definer
set search_path = ''
as $$
  insert into ledger.accounts (name, owner_id, kind, currency)
  select
    legs.account,
    case when legs.account like 'person:%' then split_part(legs.account, ':', 2)::uuid end,
    case when legs.account like 'person:%' then 'person' else split_part(legs.account, ':', 2) end,
    legs.currency
  from unnest(p_accounts, p_currencies) as legs (account, currency)
  on conflict (name) do nothing;
$$;
comment on function ledger.open_accounts(text[], text[]) is
  'Opens the accounts postings name (person:<id>:<currency>, house:<kind>:<currency>) that do not exist yet.';

-- Appends one entry at the head of the chain, under the head's row lock (held to commit, so seq stays gapless:
-- a rolled-back sealer leaves the head as it was). The entry it corrects is the last sealed one of the same
-- transactions row: entries are sealed in the order they were written, so that one came before.
drop function ledger.append_entry(uuid, public.transaction_type, text, text[], text[], numeric[]);

create function ledger.append_entry(
  p_transaction_id uuid,
  p_transaction_type public.transaction_type,
  p_transaction_status text,
  p_accounts text[],
  p_currencies text[],
  p_amounts numeric[],
  p_recorded_at timestamptz default now()
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  next_seq bigint;
  correcting bigint;
  new_hash bytea;
begin
  perform ledger.open_accounts(p_accounts, p_currencies);
  select * into head from ledger.head for update;
  if p_transaction_id is not null then
    select max(seq) into correcting from ledger.entries where transaction_id = p_transaction_id;
  end if;
  next_seq := head.seq + 1;
  new_hash := ledger.entry_hash(ledger.canonical_entry(
    next_seq, head.hash, p_recorded_at, p_transaction_id, p_transaction_type, p_transaction_status, correcting,
    ledger.canonical_postings(p_accounts, p_currencies, p_amounts)
  ));
  insert into ledger.entries
    (seq, recorded_at, transaction_id, transaction_type, transaction_status, corrects, prev_hash, hash)
  values
    (next_seq, p_recorded_at, p_transaction_id, p_transaction_type, p_transaction_status, correcting, head.hash,
      new_hash);
  insert into ledger.postings (entry_seq, position, account, currency, amount)
  select next_seq, legs.position, legs.account, legs.currency, legs.amount
  from unnest(p_accounts, p_currencies, p_amounts) with ordinality as legs (account, currency, amount, position);
  update ledger.head set seq = next_seq, hash = new_hash;
  return next_seq;
end;
$$;
comment on function ledger.append_entry(uuid, public.transaction_type, text, text[], text[], numeric[], timestamptz) is
  'Appends one hashed entry with its postings at the head of the chain (opening accounts as needed); called by '
  'the journal''s trigger and the sealer, holding the head''s lock.';

-- The caller holds the head's lock. Each statement here reads what is committed now, so every entry whose
-- writer committed before this point is sealed, in the order written.
create function ledger.seal_queued() returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  queued ledger.unsealed_entries;
  sealed integer := 0;
begin
  for queued in select * from ledger.unsealed_entries order by id loop
    perform ledger.append_entry(queued.transaction_id, queued.transaction_type, queued.transaction_status,
      queued.accounts, queued.currencies, queued.amounts, queued.recorded_at);
    delete from ledger.unsealed_entries where id = queued.id;
    sealed := sealed + 1;
  end loop;
  return sealed;
end;
$$;
comment on function ledger.seal_queued() is
  'Seals every committed unsealed entry into the chain, in id order, and removes it from the queue; the caller '
  'holds the head''s lock. Answers how many.';

create function ledger.seal() returns integer
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform from ledger.head for update;
  return ledger.seal_queued();
end;
$$;
comment on function ledger.seal() is
  'Waits for the head''s lock and seals every entry committed so far (ledger.seal_queued). Called by the '
  'schedule, by the reconciliation and checkpoints before they read, and by tests that read the journal.';

-- The difference a change makes (what the row moves now - what it moved before), as one entry.
create or replace function ledger.record_transaction_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  before_row public.transactions;
  after_row public.transactions;
  accounts text[];
  currencies text[];
  amounts numeric[];
begin
  if tg_op <> 'INSERT' then
    before_row := old;
  end if;
  if tg_op <> 'DELETE' then
    after_row := new;
  end if;
  select array_agg(delta.account order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.currency order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.amount order by delta.currency collate "C", delta.account collate "C")
  into accounts, currencies, amounts
  from (
    select legs.account, legs.currency, sum(legs.amount) as amount
    from (
      select * from ledger.effect_of(after_row.user_id, after_row.type, after_row.status, after_row.amount,
        after_row.cryptocurrency, after_row.quantity)
      union all
      select moved.account, moved.currency, -moved.amount
      from ledger.effect_of(before_row.user_id, before_row.type, before_row.status, before_row.amount,
        before_row.cryptocurrency, before_row.quantity) as moved
    ) as legs
    group by legs.account, legs.currency
    having sum(legs.amount) <> 0
  ) as delta;
  if accounts is null then
    return null;
  end if;
  if not ledger.sums_to_zero(currencies, amounts) then
    raise exception 'Journal entry does not balance for transaction %', coalesce(after_row.id, before_row.id)
      using errcode = '23514';
  end if;
  -- Never wait for the head: a writer that waited would hold the head through its commit's flush, and writers
  -- would flush one by one. The one that gets it seals what others queued, then its own entry; the others queue.
  perform from ledger.head for update skip locked;
  if found then
    perform ledger.seal_queued();
    perform ledger.append_entry(
      coalesce(after_row.id, before_row.id),
      coalesce(after_row.type, before_row.type),
      case when tg_op = 'DELETE' then 'deleted' else after_row.status end,
      accounts, currencies, amounts
    );
  else
    perform ledger.open_accounts(accounts, currencies);
    insert into ledger.unsealed_entries (transaction_id, transaction_type, transaction_status, accounts, currencies, amounts)
    values (
      coalesce(after_row.id, before_row.id),
      coalesce(after_row.type, before_row.type),
      case when tg_op = 'DELETE' then 'deleted' else after_row.status end,
      accounts, currencies, amounts
    );
  end if;
  return null;
end;
$$;
comment on function ledger.record_transaction_change() is
  'Writes the journal entry of a change to a transactions row (when it changes what the row moves), in the '
  'same database transaction: sealed at the head when its lock is free, else queued unsealed for the next holder.';

create function public.seal_ledger() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  sealed integer;
begin
  if coalesce((select auth.jwt()) ->> 'role', '') <> 'service_role' then
    perform private.assert_admin();
  end if;
  sealed := ledger.seal();
  return jsonb_build_object(
    'sealed', sealed,
    'head_seq', (select seq from ledger.head),
    'awaiting_seal', (select count(*) from ledger.unsealed_entries)
  );
end;
$$;
comment on function public.seal_ledger() is
  'The service role (the sealing schedule) or an admin at aal2: seals every committed entry into the chain; '
  'answers how many, the head''s seq and how many were committed meanwhile and await the next seal.';
revoke execute on function public.seal_ledger() from public, anon;
grant execute on function public.seal_ledger() to authenticated, service_role;

create or replace function ledger.book_differences() returns setof ledger.difference
language sql
stable
set search_path = ''
as $$
  -- What the books say: sealed postings and those awaiting seal alike, in this one snapshot, so a change
  -- committed while the reconciliation runs is not taken for a difference (it is counted as awaiting seal).
  with journal_postings as (
    select entries.transaction_id, postings.entry_seq, postings.account, postings.amount
    from ledger.postings
    join ledger.entries on entries.seq = postings.entry_seq
    union all
    select unsealed.transaction_id, null, legs.account, legs.amount
    from ledger.unsealed_entries as unsealed
    cross join unnest(unsealed.accounts, unsealed.amounts) as legs (account, amount)
  ),
  person_balances as (
    select accounts.owner_id, accounts.currency, accounts.name, -sum(postings.amount) as balance,
      max(postings.entry_seq) as last_entry
    from ledger.accounts
    join journal_postings as postings on postings.account = accounts.name
    where accounts.kind = 'person'
    group by accounts.owner_id, accounts.currency, accounts.name
  ),
  usd as (
    select
      coalesce(profiles.id, person_balances.owner_id) as person,
      coalesce(person_balances.balance, 0) as journal,
      profiles.balance as stored,
      person_balances.last_entry
    from public.profiles
    full join (select * from person_balances where currency = 'USD') as person_balances
      on person_balances.owner_id = profiles.id
  ),
  coins as (
    select
      coalesce(holdings.user_id, person_balances.owner_id) as person,
      coalesce(holdings.cryptocurrency, person_balances.currency) as coin,
      coalesce(person_balances.balance, 0) as journal,
      coalesce(holdings.quantity, 0) as stored,
      person_balances.last_entry
    from public.holdings
    full join (select * from person_balances where currency <> 'USD') as person_balances
      on person_balances.owner_id = holdings.user_id and person_balances.currency = holdings.cryptocurrency
  ),
  expected_by_transaction as (
    select transactions.id, effect.account, effect.amount
    from public.transactions
    cross join lateral ledger.effect_of(transactions.user_id, transactions.type, transactions.status,
      transactions.amount, transactions.cryptocurrency, transactions.quantity) as effect
  ),
  journaled_by_transaction as (
    select transaction_id as id, account, sum(amount) as amount, max(entry_seq) as last_entry
    from journal_postings
    where transaction_id is not null
    group by transaction_id, account
  ),
  settled_requests as (
    select 'buy request' as kind, buy_requests.id, buy_requests.status::text as status,
      count(transactions.id) filter (where transactions.status = 'complete') as settled
    from public.buy_requests
    left join public.transactions on transactions.buy_request_id = buy_requests.id
    group by buy_requests.id
    union all
    select 'sell request', sell_requests.id, sell_requests.status::text,
      count(transactions.id) filter (where transactions.status = 'complete')
    from public.sell_requests
    left join public.transactions on transactions.sell_request_id = sell_requests.id
    group by sell_requests.id
    union all
    select 'withdraw request', withdraw_requests.id, withdraw_requests.status::text,
      count(transactions.id) filter (where transactions.status = 'complete')
    from public.withdraw_requests
    left join public.transactions on transactions.withdraw_request_id = withdraw_requests.id
    group by withdraw_requests.id
  )
  select 'entry: unbalanced', entry_seq, 'entry ' || entry_seq || ' in ' || currency, '0', sum(amount)::text
  from ledger.postings
  group by entry_seq, currency
  having sum(amount) <> 0
  union all
  select 'entry: no postings', entries.seq, 'entry ' || entries.seq, 'postings', 'none'
  from ledger.entries
  where not exists (select 1 from ledger.postings where postings.entry_seq = entries.seq)
  union all
  select 'balance differs', last_entry, 'person ' || person || ' USD', journal::text, coalesce(stored::text, 'no profile')
  from usd
  where journal <> coalesce(stored, 0)
  union all
  select 'holding differs', last_entry, 'person ' || person || ' ' || coalesce(coin, 'no coin'), journal::text,
    stored::text
  from coins
  where journal <> stored or coin is null
  union all
  select 'transaction differs from its entries',
    journaled.last_entry,
    'transaction ' || coalesce(expected.id, journaled.id) || ' ' || coalesce(expected.account, journaled.account),
    coalesce(expected.amount, 0)::text,
    coalesce(journaled.amount, 0)::text
  from expected_by_transaction as expected
  full join journaled_by_transaction as journaled
    on journaled.id = expected.id and journaled.account = expected.account
  where coalesce(expected.amount, 0) <> coalesce(journaled.amount, 0)
  union all
  select 'request settled ' || settled || ' times', null, kind || ' ' || id || ' (' || status || ')',
    case when status = 'approved' then '1' else '0' end, settled::text
  from settled_requests
  where settled <> case when status = 'approved' then 1 else 0 end;
$$;
comment on function ledger.book_differences() is
  'Recomputes from the postings (sealed and awaiting seal) and compares: every person''s USD balance with '
  'profiles.balance, their coins with the holdings view, every sealed entry''s sum per currency with zero, every '
  'transactions row''s effect with the net of its entries, and every approved request with exactly one complete '
  'settling entry (others with none).';

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
  -- Every entry committed so far is sealed first, and the head's lock is kept to the end, so the checkpoint covers
  -- exactly the chain up to this head; writers meanwhile queue their entries for the next seal and never wait.
  perform ledger.seal();
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
comment on function ledger.create_checkpoint(uuid) is
  'Seals every committed entry, then builds a checkpoint at the head: salts and leaves for every person with an '
  'account, the Merkle sum tree level by level, the root and totals. Answers its id.';

create or replace function ledger.reconcile(p_from_checkpoint boolean default false) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  latest ledger.checkpoints;
  trusted ledger.checkpoints;
  trusted_verified_at timestamptz;
  after_seq bigint := 0;
  after_hash bytea := decode(repeat('00', 32), 'hex');
  findings jsonb;
  entry_count bigint;
  scope text;
  awaiting bigint;
begin
  -- The chain verified is every entry committed before the run; the head's lock is kept to the end of it.
  perform ledger.seal();
  select * into head from ledger.head;
  select * into latest from ledger.checkpoints order by id desc limit 1;
  if p_from_checkpoint then
    select checkpoints.* into trusted
    from ledger.checkpoints
    join ledger.checkpoint_verifications as verifications on verifications.checkpoint_id = checkpoints.id
    order by checkpoints.head_seq desc, checkpoints.id desc
    limit 1;
    if trusted.id is not null then
      select verified_at into trusted_verified_at from ledger.checkpoint_verifications
      where checkpoint_id = trusted.id;
      after_seq := trusted.head_seq;
      after_hash := trusted.head_hash;
    end if;
  end if;
  select count(*) into entry_count from ledger.entries where seq > after_seq;
  select coalesce(jsonb_agg(to_jsonb(finding) order by finding.entry nulls last, finding."check", finding.subject), '[]')
  into findings
  from (
    select * from ledger.chain_differences(after_seq, after_hash)
    union all
    select * from ledger.book_differences()
    union all
    -- Each checkpoint in the run's scope (the trusted one included) still anchors the entry it names: that
    -- entry's stored hash and the hash of its contents are both the checkpoint's head hash.
    select 'checkpoint: head no longer in the chain', checkpoints.head_seq, 'checkpoint ' || checkpoints.id,
      encode(checkpoints.head_hash, 'hex'),
      case when anchored.seq is null then 'no entry'
        when anchored.hash <> checkpoints.head_hash then 'stored ' || encode(anchored.hash, 'hex')
        else 'contents ' || encode(anchored.computed_hash, 'hex') end
    from ledger.checkpoints
    left join lateral (
      select entries.seq, entries.hash,
        ledger.entry_hash(ledger.canonical_entry(entries.seq, entries.prev_hash, entries.recorded_at,
          entries.transaction_id, entries.transaction_type, entries.transaction_status, entries.corrects,
          (select ledger.canonical_postings(array_agg(account order by position),
              array_agg(currency order by position), array_agg(amount order by position))
            from ledger.postings where postings.entry_seq = entries.seq))) as computed_hash
      from ledger.entries
      where entries.seq = checkpoints.head_seq
    ) as anchored on true
    where checkpoints.head_seq > 0 and checkpoints.head_seq >= after_seq
      and (anchored.seq is null or anchored.hash <> checkpoints.head_hash
        or anchored.computed_hash <> checkpoints.head_hash)
  ) as finding;

  -- The chain is intact through the head read above: the checkpoints it covers are verified from here on.
  if not jsonb_path_exists(findings, '$[*] ? (@."check" starts with "chain:" || @."check" starts with "checkpoint:")')
  then
    insert into ledger.checkpoint_verifications (checkpoint_id, verified_after_seq, verified_through_seq)
    select checkpoints.id, after_seq, head.seq
    from ledger.checkpoints
    where checkpoints.head_seq >= after_seq and checkpoints.head_seq <= head.seq
    on conflict (checkpoint_id) do nothing;
  end if;

  select count(*) into awaiting from ledger.unsealed_entries;
  scope := case
    when trusted.id is not null then
      'The chain is verified after checkpoint #' || trusted.id || ' (verified ' || trusted_verified_at
      || '): entries ' || (after_seq + 1) || ' to ' || head.seq || '. Entries 1 to ' || after_seq
      || ' are out of scope of this run, trusted as that checkpoint''s head hash ' || encode(after_hash, 'hex')
      || ' anchors them; compare it with your anchored copy, or run from genesis.'
    when p_from_checkpoint then
      'No checkpoint is verified yet, so the chain is verified from genesis: entries 1 to ' || head.seq || '.'
    else 'The chain is verified from genesis: entries 1 to ' || head.seq || '.'
  end || ' Balances, holdings, entries and requests are checked against every posting, those of the '
    || awaiting || ' entries committed during the run and awaiting the next seal included.';
  return jsonb_build_object(
    'generated_at', now(),
    'head', jsonb_build_object('seq', head.seq, 'hash', encode(head.hash, 'hex')),
    'checkpoint', case when latest.id is not null then jsonb_build_object(
      'id', latest.id, 'head_seq', latest.head_seq, 'root', encode(latest.root_hash, 'hex')
    ) end,
    'entries_verified', entry_count,
    'awaiting_seal', awaiting,
    'verified_from', after_seq,
    'trusted_checkpoint', case when trusted.id is not null then jsonb_build_object(
      'id', trusted.id, 'head_seq', trusted.head_seq, 'head_hash', encode(trusted.head_hash, 'hex'),
      'verified_at', trusted_verified_at
    ) end,
    'scope', scope,
    'differences', findings
  );
end;
$$;
comment on function ledger.reconcile(boolean) is
  'Seals every committed entry, then the reconciliation report as JSON: the chain head, the latest checkpoint (id, '
  'head, root), the chain verified from genesis or (p_from_checkpoint) after the latest verified checkpoint''s '
  'head, which it names as trusted, how many entries committed during the run await seal, and every difference '
  '(check, entry, subject, expected, found); honest books have none. A run whose chain is intact records the '
  'checkpoints it covered as verified.';

comment on table ledger.head is
  'The chain''s last entry. Whoever seals locks this one row (select ... for update) until it commits, which '
  'serialises sealing and keeps the sequence gapless; writers that find it locked queue their entries instead.';

revoke execute on function ledger.sums_to_zero(text[], numeric[]) from public;
revoke execute on function ledger.open_accounts(text[], text[]) from public;
revoke execute on function ledger.append_entry(uuid, public.transaction_type, text, text[], text[], numeric[], timestamptz)
  from public;
revoke execute on function ledger.seal_queued() from public;
revoke execute on function ledger.seal() from public;
