-- The journal's helpers that run for every entry written become PL/pgSQL: a SQL function with its own
-- search_path is never inlined, and PostgreSQL 17 parses and plans its body again for every statement that
-- calls it, where PL/pgSQL keeps its plans for the session. The trigger checks the balance with its own query
-- for the same reason (ledger.sums_to_zero stays, for the queue's check constraint).

create or replace function ledger.canonical_time(p_at timestamptz) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
end;
$$;

create or replace function ledger.canonical_posting(p_account text, p_currency text, p_amount numeric) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return '[' || to_json(p_account)::text || ',' || to_json(p_currency)::text || ','
    || to_json(trim_scale(p_amount)::text)::text || ']';
end;
$$;

create or replace function ledger.canonical_postings(p_accounts text[], p_currencies text[], p_amounts numeric[])
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

create or replace function ledger.canonical_entry(
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

create or replace function ledger.entry_hash(p_canonical text) returns bytea
language plpgsql
immutable
set search_path = ''
as $$
begin
  return sha256(convert_to(p_canonical, 'UTF8'));
end;
$$;

create or replace function ledger.open_accounts(p_accounts text[], p_currencies text[]) returns void
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
  if exists (
    select from unnest(currencies, amounts) as legs (currency, amount) group by legs.currency having sum(legs.amount) <> 0
  ) then
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
