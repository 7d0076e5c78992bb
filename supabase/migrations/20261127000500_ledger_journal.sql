-- The journal: a double-entry, hash-chained, append-only record of every movement of money and coins,
-- written by a trigger on public.transactions in the same database transaction as the change it records,
-- so every writer (each money RPC, a migration, an operator's statement) is covered. transactions, the
-- balances and the holdings stay the specification's records and views; the journal is what proves them
-- (ledger.reconcile, next migration). docs/architecture.md, "The journal", describes the accounts, the
-- canonical form and the cost of the one writer at a time.
--
-- Signs: a posting's amount is positive for a debit, negative for a credit, and each entry's postings sum
-- to zero per currency. The house's bank, inventory and trading accounts are assets (debit balances); a
-- person's accounts are what the house owes them (credit balances): their balance is minus the sum.

create schema ledger;
comment on schema ledger is
  'The double-entry journal: accounts, hash-chained entries and their postings, checkpoints. Read by admins at '
  'aal2; written only by the trigger on public.transactions and the checkpoint function.';
grant usage on schema ledger to authenticated;

create table ledger.accounts (
  name text primary key,
  owner_id uuid,
  kind text not null,
  currency text not null,
  opened_at timestamptz not null default now(),
  constraint accounts_kind check (kind in ('person', 'bank', 'inventory', 'trading')),
  constraint accounts_owner_is_a_person check ((kind = 'person') = (owner_id is not null))
);
comment on table ledger.accounts is
  'Every account the journal posts to: person:<id>:<currency> (what the house owes a person, in USD or a coin), '
  'house:bank:USD, house:inventory:<coin> and house:trading:USD. Never deleted: a person''s accounts outlive them.';
comment on column ledger.accounts.name is 'The account''s name in the canonical form of the entries.';
comment on column ledger.accounts.owner_id is
  'The person (profiles.id, later a pseudonymous id) whose account this is; no foreign key, so deleting a '
  'person never deletes their books.';
comment on column ledger.accounts.kind is 'person, bank (USD the house holds), inventory (coins it holds), trading.';
comment on column ledger.accounts.currency is 'USD or a coin''s market-data id (bitcoin, ethereum, ...).';
comment on column ledger.accounts.opened_at is 'When the first posting to the account was written.';
create index accounts_owner_id_idx on ledger.accounts (owner_id) where owner_id is not null;
comment on index ledger.accounts_owner_id_idx is 'A person''s accounts (reconciliation, their inclusion proof).';

create table ledger.entries (
  seq bigint primary key,
  recorded_at timestamptz not null,
  transaction_id uuid,
  transaction_type public.transaction_type,
  transaction_status text not null,
  corrects bigint references ledger.entries (seq),
  prev_hash bytea not null,
  hash bytea not null,
  constraint entries_seq_positive check (seq > 0),
  constraint entries_hashes_are_sha256 check (octet_length(prev_hash) = 32 and octet_length(hash) = 32)
);
comment on table ledger.entries is
  'One entry per change to what a transactions row moves, in a gapless sequence, each hashed over its canonical '
  'form (which names the previous entry''s hash): a hash chain.';
comment on column ledger.entries.seq is 'Gapless position in the chain, from 1.';
comment on column ledger.entries.recorded_at is 'The start of the database transaction that wrote the entry.';
comment on column ledger.entries.transaction_id is
  'The public.transactions row whose change this records (no foreign key: the row may be deleted later).';
comment on column ledger.entries.transaction_type is 'deposit, buy, sell or withdraw.';
comment on column ledger.entries.transaction_status is 'The row''s status after the change; deleted when it was removed.';
comment on column ledger.entries.corrects is
  'The previous entry of the same transactions row, which this one corrects (reverses or amends).';
comment on column ledger.entries.prev_hash is 'The previous entry''s hash; 32 zero bytes for the first.';
comment on column ledger.entries.hash is 'SHA-256 of the entry''s canonical form (ledger.canonical_entry).';
create index entries_transaction_id_idx on ledger.entries (transaction_id, seq);
comment on index ledger.entries_transaction_id_idx is 'A transactions row''s entries, in order (corrections).';

create table ledger.postings (
  entry_seq bigint not null references ledger.entries (seq),
  position smallint not null,
  account text not null references ledger.accounts (name),
  currency text not null,
  amount numeric not null,
  primary key (entry_seq, position),
  constraint postings_amount_not_zero check (amount <> 0)
);
comment on table ledger.postings is 'The legs of an entry: each debits (amount > 0) or credits (amount < 0) one account.';
comment on column ledger.postings.position is 'Order within the entry, from 1 (by currency, then account name).';
comment on column ledger.postings.account is 'The account posted to.';
comment on column ledger.postings.currency is 'The account''s currency.';
comment on column ledger.postings.amount is 'Debit (positive) or credit (negative), exact.';
create index postings_account_idx on ledger.postings (account) include (amount, entry_seq);
comment on index ledger.postings_account_idx is 'An account''s balance: the sum of its postings.';

create table ledger.head (
  only_row boolean primary key default true,
  seq bigint not null,
  hash bytea not null,
  constraint head_only_row check (only_row)
);
comment on table ledger.head is
  'The chain''s last entry. Each writer locks this one row (select ... for update) until it commits, which '
  'serialises writers and keeps the sequence gapless.';
comment on column ledger.head.only_row is 'Always true: the table has one row.';
comment on column ledger.head.seq is 'The last entry''s seq (0 before the first).';
comment on column ledger.head.hash is 'The last entry''s hash (32 zero bytes before the first).';
insert into ledger.head (seq, hash) values (0, decode(repeat('00', 32), 'hex'));

-- Read: admins at aal2, by the same two layers as every admin table.
do $$
declare
  journal_table text;
begin
  foreach journal_table in array array['accounts', 'entries', 'postings', 'head'] loop
    execute format('alter table ledger.%I enable row level security', journal_table);
    execute format('revoke all on table ledger.%I from anon, authenticated, service_role', journal_table);
    execute format('grant select on table ledger.%I to authenticated', journal_table);
    execute format(
      'create policy "Admins can read the journal" on ledger.%I for select to authenticated '
      'using ((select private.is_admin()))',
      journal_table
    );
    execute format(
      'comment on policy "Admins can read the journal" on ledger.%I is %L',
      journal_table,
      'Admins read the books; nobody writes them through the API.'
    );
    execute format(
      'create policy "Only aal2 sessions can read the journal" on ledger.%I as restrictive for select '
      'to authenticated using (((select auth.jwt()) ->> ''aal'') = ''aal2'')',
      journal_table
    );
    execute format(
      'comment on policy "Only aal2 sessions can read the journal" on ledger.%I is %L',
      journal_table,
      'The journal, like every admin table, needs a second factor.'
    );
  end loop;
end;
$$;

-- Append-only: no update or delete for anyone but the migration owner (the tables' owner, as the login role,
-- so a security-definer function called through the API is refused too).
create function ledger.refuse_rewrite() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if session_user = (select pg_catalog.pg_get_userbyid(relowner) from pg_catalog.pg_class where oid = tg_relid) then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  raise exception 'The journal is append-only: % on ledger.% is refused', tg_op, tg_table_name
    using errcode = '42501';
end;
$$;
comment on function ledger.refuse_rewrite() is
  'Refuses update, delete and truncate of the journal to every login but the migration owner.';

do $$
declare
  journal_table text;
begin
  foreach journal_table in array array['accounts', 'entries', 'postings'] loop
    execute format(
      'create trigger refuse_rewrite_before_change before update or delete on ledger.%I '
      'for each row execute function ledger.refuse_rewrite()',
      journal_table
    );
    execute format(
      'comment on trigger refuse_rewrite_before_change on ledger.%I is %L',
      journal_table,
      'Append-only: rows are never changed or removed.'
    );
  end loop;
  foreach journal_table in array array['accounts', 'entries', 'postings', 'head'] loop
    execute format(
      'create trigger refuse_truncate before truncate on ledger.%I '
      'for each statement execute function ledger.refuse_rewrite()',
      journal_table
    );
    execute format(
      'comment on trigger refuse_truncate on ledger.%I is %L',
      journal_table,
      'The journal is never emptied.'
    );
  end loop;
end;
$$;
create trigger refuse_delete_before_delete before delete on ledger.head
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_delete_before_delete on ledger.head is 'The head row moves forward; it is never removed.';

-- What a transactions row moves while it is complete. Mirrors private.ledger_effect (the balance) and the
-- holdings view (coins: complete buys and sells that carry a quantity).
create function ledger.effect_of(
  p_user_id uuid,
  p_type public.transaction_type,
  p_status text,
  p_amount numeric,
  p_cryptocurrency text,
  p_quantity numeric
) returns table (account text, currency text, amount numeric)
language sql
immutable
set search_path = ''
as $$
  select legs.account, legs.currency, legs.amount
  from (
    values
      -- USD: the person's account against the bank (deposits, withdrawals) or trading (buys, sells).
      ('person:' || p_user_id || ':USD', 'USD',
        case when p_type in ('deposit', 'sell') then -p_amount else p_amount end),
      (case when p_type in ('deposit', 'withdraw') then 'house:bank:USD' else 'house:trading:USD' end, 'USD',
        case when p_type in ('deposit', 'sell') then p_amount else -p_amount end),
      -- Coins: the person's coin account against the house's inventory of that coin.
      ('person:' || p_user_id || ':' || p_cryptocurrency, p_cryptocurrency,
        case p_type when 'buy' then -p_quantity when 'sell' then p_quantity end),
      ('house:inventory:' || p_cryptocurrency, p_cryptocurrency,
        case p_type when 'buy' then p_quantity when 'sell' then -p_quantity end)
  ) as legs (account, currency, amount)
  where p_status = 'complete' and legs.amount is not null and legs.currency is not null;
$$;
comment on function ledger.effect_of(uuid, public.transaction_type, text, numeric, text, numeric) is
  'The postings a transactions row stands for while complete (none otherwise): USD between the person and the '
  'bank or trading account, and for buys and sells with a quantity, the coin between the person and the inventory.';

-- The canonical form: the JSON text JSON.stringify gives for
--   ["coinvault-ledger-entry-v1", seq, prev_hash_hex, recorded_at, transaction_id, transaction_type,
--    transaction_status, corrects, [[account, currency, amount], ...]]
-- with recorded_at as YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC) and each amount a decimal string without trailing zeros.
create function ledger.canonical_postings(p_accounts text[], p_currencies text[], p_amounts numeric[])
returns text
language sql
immutable
set search_path = ''
as $$
  select '[' || coalesce(string_agg(
    '[' || to_json(legs.account)::text || ',' || to_json(legs.currency)::text || ','
      || to_json(trim_scale(legs.amount)::text)::text || ']',
    ',' order by legs.position
  ), '') || ']'
  from unnest(p_accounts, p_currencies, p_amounts) with ordinality as legs (account, currency, amount, position);
$$;
comment on function ledger.canonical_postings(text[], text[], numeric[]) is
  'The postings part of an entry''s canonical form, in the order given.';

create function ledger.canonical_entry(
  p_seq bigint,
  p_prev_hash bytea,
  p_recorded_at timestamptz,
  p_transaction_id uuid,
  p_transaction_type public.transaction_type,
  p_transaction_status text,
  p_corrects bigint,
  p_postings text
) returns text
language sql
immutable
set search_path = ''
as $$
  select '["coinvault-ledger-entry-v1",' || p_seq || ',"' || encode(p_prev_hash, 'hex') || '","'
    || to_char(p_recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '",'
    || coalesce(to_json(p_transaction_id::text)::text, 'null') || ','
    || coalesce(to_json(p_transaction_type::text)::text, 'null') || ','
    || to_json(p_transaction_status)::text || ','
    || coalesce(p_corrects::text, 'null') || ','
    || p_postings || ']';
$$;
comment on function ledger.canonical_entry(bigint, bytea, timestamptz, uuid, public.transaction_type, text, bigint, text)
  is 'The exact text an entry''s hash is taken over (UTF-8): docs/architecture.md, "Canonical form".';

create function ledger.entry_hash(p_canonical text) returns bytea
language sql
immutable
set search_path = ''
as $$
  select sha256(convert_to(p_canonical, 'UTF8'));
$$;
comment on function ledger.entry_hash(text) is 'SHA-256 of the canonical form''s UTF-8 bytes.';

-- Appends one entry under the head's row lock: the lock is held to commit, so seq stays gapless (a rolled
-- back writer leaves the head as it was) and the chain is one line.
create function ledger.append_entry(
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
  new_hash bytea;
begin
  select * into head from ledger.head for update;
  next_seq := head.seq + 1;
  if p_transaction_id is not null then
    select max(seq) into correcting from ledger.entries where transaction_id = p_transaction_id;
  end if;
  new_hash := ledger.entry_hash(ledger.canonical_entry(
    next_seq, head.hash, now(), p_transaction_id, p_transaction_type, p_transaction_status, correcting,
    ledger.canonical_postings(p_accounts, p_currencies, p_amounts)
  ));

  insert into ledger.accounts (name, owner_id, kind, currency)
  select
    legs.account,
    case when legs.account like 'person:%' then split_part(legs.account, ':', 2)::uuid end,
    case when legs.account like 'person:%' then 'person' else split_part(legs.account, ':', 2) end,
    legs.currency
  from unnest(p_accounts, p_currencies) as legs (account, currency)
  on conflict (name) do nothing;
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
comment on function ledger.append_entry(uuid, public.transaction_type, text, text[], text[], numeric[]) is
  'Appends one hashed entry with its postings at the head of the chain (opening accounts as needed); called '
  'only by the trigger on public.transactions.';

-- The difference a change makes (what the row moves now - what it moved before), as one entry.
create function ledger.record_transaction_change() returns trigger
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
  perform ledger.append_entry(
    coalesce(after_row.id, before_row.id),
    coalesce(after_row.type, before_row.type),
    case when tg_op = 'DELETE' then 'deleted' else after_row.status end,
    accounts,
    currencies,
    amounts
  );
  return null;
end;
$$;
comment on function ledger.record_transaction_change() is
  'Writes the journal entry of a change to a transactions row (when it changes what the row moves), in the '
  'same database transaction.';

revoke execute on all functions in schema ledger from public;

-- Existing rows first, in the order they happened, as if each had been journaled when it completed.
do $$
declare
  existing record;
begin
  for existing in
    select transactions.id, transactions.type, transactions.status, legs.*
    from public.transactions
    cross join lateral (
      select array_agg(effect.account order by effect.currency collate "C", effect.account collate "C") as accounts,
             array_agg(effect.currency order by effect.currency collate "C", effect.account collate "C") as currencies,
             array_agg(effect.amount order by effect.currency collate "C", effect.account collate "C") as amounts
      from ledger.effect_of(transactions.user_id, transactions.type, transactions.status, transactions.amount,
        transactions.cryptocurrency, transactions.quantity) as effect
    ) as legs
    where legs.accounts is not null
    order by transactions.date, transactions.id
  loop
    perform ledger.append_entry(
      existing.id, existing.type, existing.status, existing.accounts, existing.currencies, existing.amounts
    );
  end loop;
end;
$$;

-- Deferred to commit: the writer takes the head's lock when its transaction commits, after the rest of the
-- money step (the request's update, the audit row, notifications) ran, so writers serialise only over the
-- journal's own insert and the commit itself. Each change's event keeps its own row images, so a row inserted
-- and then updated in one transaction is journaled as two entries, in order.
create constraint trigger record_in_journal_at_commit
  after insert or update or delete on public.transactions
  deferrable initially deferred
  for each row execute function ledger.record_transaction_change();
comment on trigger record_in_journal_at_commit on public.transactions is
  'Every change to what a transactions row moves is one journal entry, written at commit of the same database '
  'transaction.';
