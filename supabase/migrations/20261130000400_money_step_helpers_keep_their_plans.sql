-- The helpers every money step runs (an approval calls each one to six times: the admin and money-gate checks, the
-- audit row, the notification, the broadcasts, the journal's legs) become PL/pgSQL. A SQL function with its own
-- search_path is never inlined, and PostgreSQL 17 parses and plans its body again in every transaction that
-- calls it; PL/pgSQL keeps its plans for the session. Same answers, same privileges, same volatility.

create or replace function private.is_usd_amount(value numeric) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return value is not null
    and value > 0
    and value < 1e12
    and value = round(value, 2);
end;
$$;

create or replace function private.format_usd(value numeric) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  -- Same text as JavaScript's value.toLocaleString('en-US'): 10000 -> 10,000 and 10.5 -> 10.5.
  return to_char(trunc(value), 'FM999,999,999,999,990')
    || coalesce('.' || nullif(rtrim(substr(to_char(abs(value) - trunc(abs(value)), 'FM0.00'), 3), '0'), ''), '');
end;
$$;

create or replace function private.write_audit(
  p_action text,
  p_target_table text,
  p_target_id uuid,
  p_details jsonb default '{}'::jsonb,
  p_actor_id uuid default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.audit_log (actor_id, action, target_table, target_id, details)
  values (
    coalesce(p_actor_id, (select auth.uid())),
    p_action,
    p_target_table,
    p_target_id,
    coalesce(p_details, '{}'::jsonb)
  );
end;
$$;

create or replace function private.session_is_aal2() returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false);
end;
$$;

create or replace function private.is_admin() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.session_is_aal2() and exists (
    select 1 from public.profiles where id = (select auth.uid()) and role = 'admin'
  );
end;
$$;

create or replace function private.ledger_effect(p_type public.transaction_type, p_amount numeric, p_status text)
returns numeric
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case
    when p_status <> 'complete' then 0
    when p_type in ('deposit', 'sell') then p_amount
    else -p_amount
  end;
end;
$$;

create or replace function private.fresh_price(p_cryptocurrency text) returns numeric
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select price from public.price_snapshots
    where cryptocurrency = p_cryptocurrency and captured_at >= now() - interval '2 minutes'
    order by captured_at desc
    limit 1
  );
end;
$$;

create or replace function private.coin_quantity(p_amount numeric, p_price numeric) returns numeric
language plpgsql
immutable
set search_path = ''
as $$
begin
  -- Scale 20 before dividing, so the quotient is exact to the 18 places kept.
  return trunc(round(p_amount, 20) / p_price, 18);
end;
$$;

create or replace function private.notify(p_user_id uuid, p_kind text, p_title text, p_body text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, title, body) values (p_user_id, p_kind, p_title, p_body);
end;
$$;

create or replace function private.selectable_columns(p_table regclass, p_row jsonb) returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_row is null then
    return null;
  end if;
  return (
    select coalesce(jsonb_object_agg(c.key, c.value), '{}'::jsonb)
      from jsonb_each(p_row) c
     where pg_catalog.has_column_privilege('authenticated', p_table, c.key, 'SELECT')
  );
end;
$$;

create or replace function private.is_frozen(p_user_id uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select from public.account_freezes as current_freeze
    where current_freeze.user_id = p_user_id and current_freeze.frozen_at is not null
      and (current_freeze.unfreeze_at is null or current_freeze.unfreeze_at > now())
  );
end;
$$;

create or replace function ledger.sums_to_zero(p_currencies text[], p_amounts numeric[]) returns boolean
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

create or replace function ledger.effect_of(
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
