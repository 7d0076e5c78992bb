-- The journal: a double-entry, hash-chained, append-only record of every movement of money and coins,
-- written by a trigger on public.transactions in the same database transaction as the change it records, so
-- every writer is covered; the reconciliation that checks it against transactions, balances and holdings; and
-- checkpoints with a Merkle sum tree over every person's balances, whose root is public and whose paths are each
-- person's proof of liabilities. docs/architecture.md, "The journal" and "Proof of liabilities".
--
-- Signs: a posting's amount is positive for a debit, negative for a credit, and each entry's postings sum
-- to zero per currency. The house's bank, inventory and trading accounts are assets (debit balances); a
-- person's accounts are what the house owes them (credit balances): their balance is minus the sum.
-- ledger.head's single row (seq 0, 32 zero bytes) is data: the migration inserts it.

create schema ledger;
comment on schema ledger is
  'The double-entry journal: accounts, hash-chained entries and their postings, checkpoints. Read by admins at '
  'aal2; written only by the trigger on public.transactions and the checkpoint function.';
grant usage on schema ledger to authenticated;

-- Append-only: no update or delete for anyone but the migration owner (the tables' owner, as the login role,
-- so a security-definer function called through the API is refused too). The security log reuses it.
create function ledger.refuse_rewrite() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if session_user = (select pg_catalog.pg_get_userbyid(relowner) from pg_catalog.pg_class where oid = tg_relid) then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  raise exception 'Append-only: % on %.% is refused', tg_op, tg_table_schema, tg_table_name
    using errcode = '42501';
end;
$$;
comment on function ledger.refuse_rewrite() is
  'Refuses update, delete and truncate of an append-only table (the journal''s, the security log) to every login '
  'but the migration owner.';

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
alter table ledger.accounts enable row level security;
revoke all on table ledger.accounts from anon, authenticated, service_role;
grant select on table ledger.accounts to authenticated;
create policy "Admins can read the journal" on ledger.accounts for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.accounts is
  'Admins read the books; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.accounts as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.accounts is
  'The journal, like every admin table, needs a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.accounts
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.accounts is 'Append-only: rows are never changed or removed.';
create trigger refuse_truncate before truncate on ledger.accounts
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.accounts is 'The journal is never emptied.';

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
create index entries_corrects_idx on ledger.entries (corrects) where corrects is not null;
comment on index ledger.entries_corrects_idx is 'The entries that correct a given one (and the foreign key''s checks).';
alter table ledger.entries enable row level security;
revoke all on table ledger.entries from anon, authenticated, service_role;
grant select on table ledger.entries to authenticated;
create policy "Admins can read the journal" on ledger.entries for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.entries is
  'Admins read the books; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.entries as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.entries is
  'The journal, like every admin table, needs a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.entries
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.entries is 'Append-only: rows are never changed or removed.';
create trigger refuse_truncate before truncate on ledger.entries
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.entries is 'The journal is never emptied.';

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
alter table ledger.postings enable row level security;
revoke all on table ledger.postings from anon, authenticated, service_role;
grant select on table ledger.postings to authenticated;
create policy "Admins can read the journal" on ledger.postings for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.postings is
  'Admins read the books; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.postings as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.postings is
  'The journal, like every admin table, needs a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.postings
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.postings is 'Append-only: rows are never changed or removed.';
create trigger refuse_truncate before truncate on ledger.postings
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.postings is 'The journal is never emptied.';

create table ledger.head (
  only_row boolean primary key default true,
  seq bigint not null,
  hash bytea not null,
  constraint head_only_row check (only_row)
);
comment on table ledger.head is
  'The chain''s last entry. Whoever seals locks this one row (select ... for update) until it commits, which '
  'serialises sealing and keeps the sequence gapless; writers that find it locked queue their entries instead.';
comment on column ledger.head.only_row is 'Always true: the table has one row.';
comment on column ledger.head.seq is 'The last entry''s seq (0 before the first).';
comment on column ledger.head.hash is 'The last entry''s hash (32 zero bytes before the first).';
alter table ledger.head enable row level security;
revoke all on table ledger.head from anon, authenticated, service_role;
grant select on table ledger.head to authenticated;
create policy "Admins can read the journal" on ledger.head for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.head is
  'Admins read the books; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.head as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.head is
  'The journal, like every admin table, needs a second factor.';
create trigger refuse_truncate before truncate on ledger.head
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.head is 'The journal is never emptied.';
create trigger refuse_delete_before_delete before delete on ledger.head
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_delete_before_delete on ledger.head is 'The head row moves forward; it is never removed.';

-- Double entry, checked where an entry is written: each currency's amounts sum to zero.
create function ledger.sums_to_zero(p_currencies text[], p_amounts numeric[]) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return cardinality(p_currencies) = cardinality(p_amounts) and cardinality(p_amounts) > 0
    and not exists (
      select from unnest(p_currencies, p_amounts) as legs (currency, amount)
      group by legs.currency
      having sum(legs.amount) <> 0
    );
end;
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
-- Only the sealer takes an entry off the queue, right after putting it at the head of the chain; nobody changes one.
create function ledger.guard_unsealed_entries() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and exists (
    select from ledger.head
    join ledger.entries on entries.seq = head.seq
    where entries.transaction_id is not distinct from old.transaction_id
      and entries.transaction_type is not distinct from old.transaction_type
      and entries.transaction_status = old.transaction_status
      and entries.recorded_at = old.recorded_at
      and (
        select array_agg(postings.account order by postings.position) = old.accounts
          and array_agg(postings.currency order by postings.position) = old.currencies
          and array_agg(postings.amount order by postings.position) = old.amounts
        from ledger.postings where postings.entry_seq = head.seq
      )
  ) then
    return old;
  end if;
  if tg_op = 'DELETE' then
    raise exception 'Entry % awaiting seal leaves the queue only once sealed at the head of the chain', old.id
      using errcode = '42501';
  end if;
  raise exception 'Append-only: % on %.% is refused', tg_op, tg_table_schema, tg_table_name
    using errcode = '42501';
end;
$$;
comment on function ledger.guard_unsealed_entries() is
  'Refuses every update and truncate of the queue of entries awaiting seal, and the deletion of a queued entry '
  'unless the entry at the head of the chain is that one (the sealer appends it, then deletes it): for every '
  'login, the migration owner included.';
revoke execute on function ledger.guard_unsealed_entries() from public;

create trigger refuse_rewrite_before_change before update or delete on ledger.unsealed_entries
  for each row execute function ledger.guard_unsealed_entries();
comment on trigger refuse_rewrite_before_change on ledger.unsealed_entries is
  'Queued entries are never changed, and leave the queue only into the chain.';
create trigger refuse_truncate before truncate on ledger.unsealed_entries
  for each statement execute function ledger.guard_unsealed_entries();
comment on trigger refuse_truncate on ledger.unsealed_entries is 'The queue is never emptied but by sealing.';

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
language plpgsql
immutable
set search_path = ''
as $$
begin
  return query
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
end;
$$;
comment on function ledger.effect_of(uuid, public.transaction_type, text, numeric, text, numeric) is
  'The postings a transactions row stands for while complete (none otherwise): USD between the person and the '
  'bank or trading account, and for buys and sells with a quantity, the coin between the person and the inventory.';

-- These helpers, run for every entry written, are PL/pgSQL rather than SQL: a SQL function with its own
-- search_path is never inlined, and PostgreSQL 17 parses and plans its body again for every statement that
-- calls it, where PL/pgSQL keeps its plans for the session.
create function ledger.canonical_time(p_at timestamptz) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
end;
$$;
comment on function ledger.canonical_time(timestamptz) is
  'A moment in every chain''s canonical form: UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ (six fraction digits).';

-- The canonical form: the JSON text JSON.stringify gives for
--   ["coinvault-ledger-entry-v1", seq, prev_hash_hex, recorded_at, transaction_id, transaction_type,
--    transaction_status, corrects, [[account, currency, amount], ...]]
-- with recorded_at as YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC) and each amount a decimal string without trailing zeros.
create function ledger.canonical_posting(p_account text, p_currency text, p_amount numeric) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return '[' || to_json(p_account)::text || ',' || to_json(p_currency)::text || ','
    || to_json(trim_scale(p_amount)::text)::text || ']';
end;
$$;
comment on function ledger.canonical_posting(text, text, numeric) is 'One posting in the canonical form.';

create function ledger.canonical_postings(p_accounts text[], p_currencies text[], p_amounts numeric[])
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return (select '[' || coalesce(string_agg(ledger.canonical_posting(legs.account, legs.currency, legs.amount), ','
    order by legs.position), '') || ']'
  from unnest(p_accounts, p_currencies, p_amounts) with ordinality as legs (account, currency, amount, position));
end;
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
language plpgsql
immutable
set search_path = ''
as $$
begin
  return '["coinvault-ledger-entry-v1",' || p_seq || ',"' || encode(p_prev_hash, 'hex') || '","'
    || ledger.canonical_time(p_recorded_at) || '",'
    || coalesce(to_json(p_transaction_id::text)::text, 'null') || ','
    || coalesce(to_json(p_transaction_type::text)::text, 'null') || ','
    || to_json(p_transaction_status)::text || ','
    || coalesce(p_corrects::text, 'null') || ','
    || p_postings || ']';
end;
$$;
comment on function ledger.canonical_entry(bigint, bytea, timestamptz, uuid, public.transaction_type, text, bigint, text)
  is 'The exact text an entry''s hash is taken over (UTF-8): docs/architecture.md, "Canonical form".';

create function ledger.entry_hash(p_canonical text) returns bytea
language plpgsql
immutable
set search_path = ''
as $$
begin
  return sha256(convert_to(p_canonical, 'UTF8'));
end;
$$;
comment on function ledger.entry_hash(text) is
  'SHA-256 of a canonical form''s UTF-8 bytes: the hash of every chain (the journal''s entries, each person''s '
  'security log).';

create function ledger.open_accounts(p_accounts text[], p_currencies text[]) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into ledger.accounts (name, owner_id, kind, currency)
  select
    legs.account,
    case when legs.account like 'person:%' then split_part(legs.account, ':', 2)::uuid end,
    case when legs.account like 'person:%' then 'person' else split_part(legs.account, ':', 2) end,
    legs.currency
  from unnest(p_accounts, p_currencies) as legs (account, currency)
  on conflict (name) do nothing;
end;
$$;
comment on function ledger.open_accounts(text[], text[]) is
  'Opens the accounts postings name (person:<id>:<currency>, house:<kind>:<currency>) that do not exist yet.';

-- Appends one entry at the head of the chain, under the head's row lock (held to commit, so seq stays gapless:
-- a rolled-back sealer leaves the head as it was). The entry it corrects is the last sealed one of the same
-- transactions row: entries are sealed in the order they were written, so that one came before.
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
  'Appends one hashed entry with its postings at the head of the chain, to accounts already opened '
  '(ledger.open_accounts); called by the journal''s trigger and the sealer, holding the head''s lock.';

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
create function ledger.record_transaction_change() returns trigger
language plpgsql
security definer
set search_path = ''
-- One plan for every change: a plan made for the operation at hand would be made again at each call.
set plan_cache_mode = force_generic_plan
as $$
declare
  before_row public.transactions;
  after_row public.transactions;
  accounts text[];
  currencies text[];
  amounts numeric[];
  unbalanced boolean;
begin
  if tg_op <> 'INSERT' then
    before_row := old;
  end if;
  if tg_op <> 'DELETE' then
    after_row := new;
  end if;
  -- One statement: the side an insert or a delete lacks is not read (its filter is decided before the scan), and
  -- whether each currency sums to zero comes with the legs.
  select array_agg(delta.account order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.currency order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.amount order by delta.currency collate "C", delta.account collate "C"),
         coalesce(bool_or(delta.currency_sum <> 0), false)
  into accounts, currencies, amounts, unbalanced
  from (
    select legs.account, legs.currency, sum(legs.amount) as amount,
      sum(sum(legs.amount)) over (partition by legs.currency) as currency_sum
    from (
      select * from ledger.effect_of(after_row.user_id, after_row.type, after_row.status, after_row.amount,
        after_row.cryptocurrency, after_row.quantity)
      where tg_op <> 'DELETE'
      union all
      select moved.account, moved.currency, -moved.amount
      from ledger.effect_of(before_row.user_id, before_row.type, before_row.status, before_row.amount,
        before_row.cryptocurrency, before_row.quantity) as moved
      where tg_op <> 'INSERT'
    ) as legs
    group by legs.account, legs.currency
    having sum(legs.amount) <> 0
  ) as delta;
  if accounts is null then
    return null;
  end if;
  if unbalanced then
    raise exception 'Journal entry does not balance for transaction %', coalesce(after_row.id, before_row.id)
      using errcode = '23514';
  end if;
  -- Opened here, sealed or queued: the reconciliation counts queued postings by their account, and the sealer
  -- appends them later to accounts this transaction opened.
  perform ledger.open_accounts(accounts, currencies);
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
  'same database transaction, opening its accounts: sealed at the head when its lock is free, else queued '
  'unsealed for the next holder.';

-- Deferred to commit: the entry is written when its transaction commits, after the rest of the money step (the
-- request's update, the audit row, notifications) ran, so a writer that seals holds the head only over the
-- journal's own inserts and the commit. Each change's event keeps its own row images, so a row inserted and
-- then updated in one transaction is journaled as two entries, in order.
create constraint trigger record_in_journal_at_commit
  after insert or update or delete on public.transactions
  deferrable initially deferred
  for each row execute function ledger.record_transaction_change();
comment on trigger record_in_journal_at_commit on public.transactions is
  'Every change to what a transactions row moves is one journal entry, written at commit of the same database '
  'transaction.';

create type ledger.difference as (
  "check" text,
  entry bigint,
  subject text,
  expected text,
  found text
);
comment on type ledger.difference is
  'One finding of the reconciliation: which check, the entry that caused it (null when none), what it concerns, '
  'what the journal (or chain) says and what was found.';

create function ledger.chain_differences(p_after_seq bigint, p_after_hash bytea)
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
comment on function ledger.chain_differences(bigint, bytea) is
  'Verifies the chain after an entry whose seq and hash are trusted (0 and 32 zero bytes: from genesis): gapless '
  'seq, each entry naming its predecessor''s hash, each hash matching its canonical form, the head at the last.';

create function ledger.book_differences() returns setof ledger.difference
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

create table ledger.checkpoints (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  created_by uuid,
  head_seq bigint not null,
  head_hash bytea not null,
  currencies text[] not null,
  totals numeric[] not null,
  people integer not null,
  root_hash bytea not null,
  constraint checkpoints_totals_per_currency check (cardinality(currencies) = cardinality(totals))
);
comment on table ledger.checkpoints is
  'A signed-off state of the books: the chain head, what the house owes people per currency, and the root of the '
  'Merkle sum tree over every person''s balances at that head.';
comment on column ledger.checkpoints.created_by is 'The admin who asked for it; null for the daily schedule.';
comment on column ledger.checkpoints.head_seq is 'The last entry the checkpoint covers.';
comment on column ledger.checkpoints.head_hash is 'That entry''s hash: anchors the chain up to it.';
comment on column ledger.checkpoints.currencies is 'The currencies of the tree''s sums, in byte order (USD first).';
comment on column ledger.checkpoints.totals is 'Owed to people per currency: the root''s sums.';
comment on column ledger.checkpoints.people is 'Leaves in the tree: every person with an account in the journal.';
comment on column ledger.checkpoints.root_hash is 'The root of the Merkle sum tree.';
alter table ledger.checkpoints enable row level security;
revoke all on table ledger.checkpoints from anon, authenticated, service_role;
grant select on table ledger.checkpoints to authenticated;
create policy "Admins can read the journal" on ledger.checkpoints for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.checkpoints is
  'Admins read the checkpoints; people read their own proof and the public root through functions.';
create policy "Only aal2 sessions can read the journal" on ledger.checkpoints as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.checkpoints is
  'The checkpoints, like every admin table, need a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.checkpoints
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.checkpoints is 'Append-only: a checkpoint is never changed or removed.';
create trigger refuse_truncate before truncate on ledger.checkpoints
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.checkpoints is 'Checkpoints are never emptied.';

create table ledger.checkpoint_leaves (
  checkpoint_id bigint not null references ledger.checkpoints (id) deferrable initially deferred,
  position integer not null,
  person_id uuid not null,
  salt bytea not null,
  balances numeric[] not null,
  primary key (checkpoint_id, position)
);
comment on table ledger.checkpoint_leaves is 'Who each leaf of a checkpoint''s tree is, with the salt drawn for them.';
comment on column ledger.checkpoint_leaves.position is 'The leaf''s position (leaves are ordered by salt: at random).';
comment on column ledger.checkpoint_leaves.person_id is 'The person (their accounts'' owner_id).';
comment on column ledger.checkpoint_leaves.salt is '32 random bytes for this person in this checkpoint only.';
comment on column ledger.checkpoint_leaves.balances is 'What the house owes them, per checkpoint currency.';
create index checkpoint_leaves_person_idx on ledger.checkpoint_leaves (person_id, checkpoint_id);
comment on index ledger.checkpoint_leaves_person_idx is 'A person''s leaf in a checkpoint (their proof).';
alter table ledger.checkpoint_leaves enable row level security;
revoke all on table ledger.checkpoint_leaves from anon, authenticated, service_role;
grant select on table ledger.checkpoint_leaves to authenticated;
create policy "Admins can read the journal" on ledger.checkpoint_leaves for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.checkpoint_leaves is
  'Admins read the checkpoints; people read their own proof and the public root through functions.';
create policy "Only aal2 sessions can read the journal" on ledger.checkpoint_leaves as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.checkpoint_leaves is
  'The checkpoints, like every admin table, need a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.checkpoint_leaves
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.checkpoint_leaves is 'Append-only: a checkpoint is never changed or removed.';
create trigger refuse_truncate before truncate on ledger.checkpoint_leaves
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.checkpoint_leaves is 'Checkpoints are never emptied.';

create table ledger.checkpoint_nodes (
  checkpoint_id bigint not null references ledger.checkpoints (id) deferrable initially deferred,
  level smallint not null,
  position integer not null,
  hash bytea not null,
  sums numeric[] not null,
  primary key (checkpoint_id, level, position)
);
comment on table ledger.checkpoint_nodes is
  'Every node of a checkpoint''s tree, leaves at level 0; a lone last node is carried up a level unchanged.';
comment on column ledger.checkpoint_nodes.hash is 'The leaf''s or node''s hash.';
comment on column ledger.checkpoint_nodes.sums is 'The sums of the balances below, per checkpoint currency.';
alter table ledger.checkpoint_nodes enable row level security;
revoke all on table ledger.checkpoint_nodes from anon, authenticated, service_role;
grant select on table ledger.checkpoint_nodes to authenticated;
create policy "Admins can read the journal" on ledger.checkpoint_nodes for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.checkpoint_nodes is
  'Admins read the checkpoints; people read their own proof and the public root through functions.';
create policy "Only aal2 sessions can read the journal" on ledger.checkpoint_nodes as restrictive for select
  to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.checkpoint_nodes is
  'The checkpoints, like every admin table, need a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.checkpoint_nodes
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.checkpoint_nodes is 'Append-only: a checkpoint is never changed or removed.';
create trigger refuse_truncate before truncate on ledger.checkpoint_nodes
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.checkpoint_nodes is 'Checkpoints are never emptied.';

create table ledger.checkpoint_verifications (
  checkpoint_id bigint primary key references ledger.checkpoints (id),
  verified_at timestamptz not null default now(),
  verified_after_seq bigint not null,
  verified_through_seq bigint not null
);
comment on table ledger.checkpoint_verifications is
  'Checkpoints whose head a reconciliation reached with the chain intact (gapless, every hash over its '
  'predecessor and contents, the anchored entry unchanged): where a run from a verified checkpoint may start.';
comment on column ledger.checkpoint_verifications.checkpoint_id is 'The checkpoint verified.';
comment on column ledger.checkpoint_verifications.verified_at is 'When the reconciliation that verified it ran.';
comment on column ledger.checkpoint_verifications.verified_after_seq is
  'That run verified the entries after this seq (0: from genesis; else an earlier verified checkpoint''s head).';
comment on column ledger.checkpoint_verifications.verified_through_seq is 'That run verified up to this entry.';
alter table ledger.checkpoint_verifications enable row level security;
revoke all on table ledger.checkpoint_verifications from anon, authenticated, service_role;
grant select on table ledger.checkpoint_verifications to authenticated;
create policy "Admins can read the journal" on ledger.checkpoint_verifications for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.checkpoint_verifications is
  'Admins read which checkpoints were verified; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.checkpoint_verifications as restrictive
  for select to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.checkpoint_verifications is
  'The checkpoints, like every admin table, need a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.checkpoint_verifications
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.checkpoint_verifications is
  'Append-only: a verification is never changed or removed.';
create trigger refuse_truncate before truncate on ledger.checkpoint_verifications
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.checkpoint_verifications is 'Verifications are never emptied.';

create function ledger.canonical_amounts(p_amounts numeric[]) returns text
language sql
immutable
set search_path = ''
as $$
  select '[' || coalesce(string_agg(to_json(trim_scale(amount)::text)::text, ',' order by position), '') || ']'
  from unnest(p_amounts) with ordinality as amounts (amount, position);
$$;
comment on function ledger.canonical_amounts(numeric[]) is 'Amounts as a JSON array of decimal strings.';

create function ledger.create_checkpoint(p_created_by uuid) returns bigint
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

create function ledger.checkpoint_summary(p_checkpoint ledger.checkpoints) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_checkpoint.id,
    'created_at', p_checkpoint.created_at,
    'head_seq', p_checkpoint.head_seq,
    'head_hash', encode(p_checkpoint.head_hash, 'hex'),
    'currencies', to_jsonb(p_checkpoint.currencies),
    'totals', (ledger.canonical_amounts(p_checkpoint.totals))::jsonb,
    'people', p_checkpoint.people,
    'root', encode(p_checkpoint.root_hash, 'hex')
  );
$$;
comment on function ledger.checkpoint_summary(ledger.checkpoints) is
  'What is published of a checkpoint: id, time, chain head, currencies, totals (decimal strings), people, root.';

create function ledger.liability_proof(p_person_id uuid, p_checkpoint_id bigint) returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'version', 'coinvault-liability-proof-v1',
    'checkpoint', ledger.checkpoint_summary(checkpoints),
    'leaf', jsonb_build_object(
      'person', leaves.person_id,
      'salt', encode(leaves.salt, 'hex'),
      'balances', (ledger.canonical_amounts(leaves.balances))::jsonb,
      'position', leaves.position
    ),
    'path', coalesce((
      select jsonb_agg(
        jsonb_build_object(
          'side', case when sibling.position < (leaves.position >> sibling.level) then 'left' else 'right' end,
          'hash', encode(sibling.hash, 'hex'),
          'sums', (ledger.canonical_amounts(sibling.sums))::jsonb
        ) order by sibling.level
      )
      -- One index probe per level: (checkpoint, level, position of the sibling).
      from generate_series(0, 31) as levels (level)
      join ledger.checkpoint_nodes as sibling
        on sibling.checkpoint_id = checkpoints.id and sibling.level = levels.level
          and sibling.position = ((leaves.position >> levels.level) # 1)
    ), '[]'::jsonb)
  )
  from ledger.checkpoints
  join ledger.checkpoint_leaves as leaves on leaves.checkpoint_id = checkpoints.id
  where checkpoints.id = p_checkpoint_id and leaves.person_id = p_person_id;
$$;
comment on function ledger.liability_proof(uuid, bigint) is
  'A person''s inclusion proof in a checkpoint: the checkpoint''s published summary, their leaf (id, salt, '
  'balances) and the sibling of each level up to the root (which side, its hash and sums). Null when they have no leaf.';

create function ledger.reconcile(p_from_checkpoint boolean default false) returns jsonb
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

create function public.ledger_reconciliation(from_checkpoint boolean default false) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return ledger.reconcile(ledger_reconciliation.from_checkpoint);
end;
$$;
comment on function public.ledger_reconciliation(boolean) is
  'Admin at aal2 only: the reconciliation report (ledger.reconcile), from genesis or from the latest verified '
  'checkpoint, for the admin page and the CLI.';

create function public.create_ledger_checkpoint() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  created_id bigint;
  created ledger.checkpoints;
  by_schedule boolean := coalesce((select auth.jwt()) ->> 'role', '') = 'service_role';
begin
  if not by_schedule then
    perform private.assert_admin();
  end if;
  created_id := ledger.create_checkpoint(case when by_schedule then null else (select auth.uid()) end);
  select * into created from ledger.checkpoints where id = created_id;
  perform private.write_audit('ledger.checkpoint', 'checkpoints', null, ledger.checkpoint_summary(created));
  return ledger.checkpoint_summary(created);
end;
$$;
comment on function public.create_ledger_checkpoint() is
  'An admin at aal2 (on demand) or the service role (the daily schedule): a checkpoint at the current head; '
  'answers its published summary.';

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
create function public.latest_ledger_checkpoint() returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select ledger.checkpoint_summary(checkpoints) from ledger.checkpoints order by id desc limit 1;
$$;
comment on function public.latest_ledger_checkpoint() is
  'Anyone: the latest checkpoint''s published summary (root, totals, chain head); null before the first.';

create function public.my_liability_proof() returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- A person with a factor reads their money at aal2 only, as their transactions.
  if coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2' and (select private.has_verified_factor()) then
    return null;
  end if;
  return ledger.liability_proof(
    (select auth.uid()),
    (select id from ledger.checkpoints order by id desc limit 1)
  );
end;
$$;
comment on function public.my_liability_proof() is
  'The caller''s own inclusion proof in the latest checkpoint (ledger.liability_proof); null without a leaf.';

revoke execute on all functions in schema ledger from public;
revoke execute on function public.create_ledger_checkpoint() from public, anon;
grant execute on function public.create_ledger_checkpoint() to authenticated, service_role;
revoke execute on function public.latest_ledger_checkpoint() from public;
grant execute on function public.latest_ledger_checkpoint() to anon, authenticated, service_role;
revoke execute on function public.ledger_reconciliation(boolean) from public, anon, service_role;
grant execute on function public.ledger_reconciliation(boolean) to authenticated;
revoke execute on function public.my_liability_proof() from public, anon, service_role;
grant execute on function public.my_liability_proof() to authenticated;
revoke execute on function public.seal_ledger() from public, anon;
grant execute on function public.seal_ledger() to authenticated, service_role;
