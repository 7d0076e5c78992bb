-- History for the wallet's chart: a coin's price over a range, and the caller's portfolio value over the
-- same range, both from the price snapshots.
--
-- Ranges: '24h' draws minute points (every snapshot of the last day, as recorded); '7d' and '30d' draw
-- hourly points (the snapshots flagged `hourly`, the only ones kept past a day). 'all' is everything kept
-- (a year at most; for the portfolio, from the person's first entry on): hourly points while that spans
-- at most 30 days, else a point a day (midnight UTC) and each hour of today. So a chart gets at most
-- 1,440 points (24 h), 168 (7 d), 720 (30 d) or about 390 (a year): about as many as a screen is wide,
-- a few kilobytes to send; a year of hourly points (8,760 a coin) would be 40 times that, and cost the
-- database ten times the work (see bench/portfolio.bench.ts).
--
-- The portfolio's value at a point = the USD balance then + sum over coins of (coins held then) x (the coin's
-- price then), so a sale moves value from coins to cash rather than showing as a crash. The balance then is
-- the balance now less the complete entries dated after the point (their ledger effect). Coins
-- held then come from the ledger: complete buy entries minus complete sell entries dated at or before the
-- point (the holdings view's bought - sold, taken over time), so the history and the holdings never
-- disagree. A coin without a snapshot at a point keeps its previous value there.

create function private.history_start(range text) returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
begin
  case range
    when '24h' then return now() - interval '24 hours';
    when '7d' then return now() - interval '7 days';
    when '30d' then return now() - interval '30 days';
    when 'all' then return '-infinity'::timestamptz;
    else
      raise exception 'Range must be one of 24h, 7d, 30d or all' using errcode = '22023';
  end case;
end;
$$;
comment on function private.history_start(text) is
  'Where a history range (24h, 7d, 30d or all) starts; refuses any other range by name.';
revoke execute on function private.history_start(text) from public;
create function private.history_snapshots(cryptocurrencies text[], range text, first_at timestamptz)
returns table (cryptocurrency text, captured_at timestamptz, price numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since timestamptz := greatest(private.history_start(range), first_at);
  oldest timestamptz;
begin
  -- Separate statements rather than one with "hourly or 24h", so each is planned on its own index: the
  -- primary key (cryptocurrency, captured_at) for 24h, price_snapshots_hourly_idx for the others.
  if range = '24h' then
    return query
      select snapshot.cryptocurrency, snapshot.captured_at, snapshot.price
      from public.price_snapshots as snapshot
      where snapshot.cryptocurrency = any (cryptocurrencies) and snapshot.captured_at >= since;
    return;
  end if;
  if range = 'all' then
    select min(snapshot.captured_at) into oldest
    from public.price_snapshots as snapshot
    where snapshot.cryptocurrency = any (cryptocurrencies) and snapshot.hourly and snapshot.captured_at >= since;
  end if;
  if oldest < now() - interval '30 days' then
    -- A history longer than 30 days is drawn a point a day (midnight UTC), and each hour of today.
    return query
      select snapshot.cryptocurrency, snapshot.captured_at, snapshot.price
      from public.price_snapshots as snapshot
      where snapshot.cryptocurrency = any (cryptocurrencies) and snapshot.hourly and snapshot.captured_at >= since
        and (
          -- In the first hour of its UTC day (date_bin: plain arithmetic, no time zone per row).
          snapshot.captured_at - date_bin('1 day', snapshot.captured_at, timestamptz '2000-01-01 00:00Z') < interval '1 hour'
          or snapshot.captured_at >= date_bin('1 day', now(), timestamptz '2000-01-01 00:00Z')
        );
  else
    return query
      select snapshot.cryptocurrency, snapshot.captured_at, snapshot.price
      from public.price_snapshots as snapshot
      where snapshot.cryptocurrency = any (cryptocurrencies) and snapshot.hourly and snapshot.captured_at >= since;
  end if;
end;
$$;
comment on function private.history_snapshots(text[], text, timestamptz) is
  'The snapshots of the given coins that a range draws from first_at on: every one of the last 24 hours '
  'for 24h; the hourly ones for 7d and 30d, and for all when it spans at most 30 days; a longer all, '
  'one a day (midnight UTC) and each hour of today.';
revoke execute on function private.history_snapshots(text[], text, timestamptz) from public;
create function public.price_history(cryptocurrency text, range text)
returns table (captured_at timestamptz, price numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select snapshot.captured_at, snapshot.price
  from private.history_snapshots(array[price_history.cryptocurrency], price_history.range, '-infinity') as snapshot
  order by snapshot.captured_at;
$$;
comment on function public.price_history(text, text) is
  'A coin''s USD price over a range (24h: a point a minute; 7d, 30d: a point an hour; all: an hour, or a '
  'day once it spans more than 30 days), oldest first. '
  'Signed-in people only: the wallet''s chart calls it (visitors read the public snapshots themselves).';
revoke execute on function public.price_history(text, text) from public, anon, authenticated, service_role;
grant execute on function public.price_history(text, text) to authenticated;
create function public.portfolio_history(range text)
returns table (captured_at timestamptz, value numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- The caller's own, whoever the caller is: an admin's history is their own too.
  person uuid := (select auth.uid());
  -- Refused by name before anything is read, also for a person who holds nothing.
  since timestamptz := private.history_start(range);
begin
  -- A person with a verified factor reads their money only at aal2, as the money tables' restrictive policies
  -- say (20261126000320_code_for_people_with_a_factor.sql, resolved when called): a log-in left at the code
  -- step sees an empty history, as it sees no holdings.
  if coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2' and (select private.has_verified_factor()) then
    return;
  end if;
  -- From the person's first entry on: nothing before it to draw.
  select greatest(since, min(entry.date)) into since
  from public.transactions as entry
  where entry.user_id = person
    and entry.type in ('buy', 'sell')
    and entry.status = 'complete'
    and entry.quantity is not null;

  return query
  with held_now as (
    -- Each coin's quantity now: an index-only scan of the holdings index, however long the ledger.
    select entry.cryptocurrency, sum(case when entry.type = 'buy' then entry.quantity else -entry.quantity end) as quantity
    from public.transactions as entry
    where entry.user_id = person
      and entry.type in ('buy', 'sell')
      and entry.status = 'complete'
      and entry.quantity is not null
    group by entry.cryptocurrency
  ),
  recent as (
    -- The entries from the range's start on (transactions_user_id_date_idx): a day's for 24h.
    select
      entry.cryptocurrency,
      entry.date,
      case when entry.type = 'buy' then entry.quantity else -entry.quantity end as change
    from public.transactions as entry
    where entry.user_id = person
      and entry.date >= since
      and entry.type in ('buy', 'sell')
      and entry.status = 'complete'
      and entry.quantity is not null
  ),
  cash_recent as (
    -- The balance's changes from the range's start on: every complete entry's ledger effect.
    select entry.date, private.ledger_effect(entry.type, entry.amount, entry.status) as change
    from public.transactions as entry
    where entry.user_id = person and entry.date >= since and entry.status = 'complete'
  ),
  entries as (
    -- What was held at the range's start, as one change before everything, then the entries since. Cash is
    -- one more holding (named so no coin id can be it) worth 1 USD a unit.
    select
      '$cash' as cryptocurrency,
      '-infinity'::timestamptz as date,
      (select profiles.balance from public.profiles where profiles.id = person)
        - coalesce((select sum(cash_recent.change) from cash_recent), 0) as change
    union all
    select '$cash', cash_recent.date, cash_recent.change
    from cash_recent
    union all
    select
      held_now.cryptocurrency,
      '-infinity'::timestamptz as date,
      held_now.quantity
        - coalesce((select sum(recent.change) from recent where recent.cryptocurrency = held_now.cryptocurrency), 0)
        as change
    from held_now
    union all
    select recent.cryptocurrency, recent.date, recent.change
    from recent
  ),
  coin_snapshots as (
    select snapshot.cryptocurrency, snapshot.captured_at, snapshot.price
    from private.history_snapshots(
      array(select held_now.cryptocurrency from held_now), portfolio_history.range, since
    ) as snapshot
  ),
  snapshots as (
    select coin_snapshots.cryptocurrency, coin_snapshots.captured_at, coin_snapshots.price
    from coin_snapshots
    union all
    -- Cash at every point a coin is drawn at.
    select distinct '$cash', coin_snapshots.captured_at, 1::numeric
    from coin_snapshots
  ),
  -- Entries and snapshots of each coin in time order (an entry before a snapshot of the same instant):
  -- the running sum of the entries' changes is the quantity held at each snapshot, times its price the
  -- coin's value there (null at the entries).
  held as (
    select
      event.cryptocurrency,
      event.captured_at,
      event.price * sum(event.change) over (
        partition by event.cryptocurrency
        order by event.captured_at, event.price is not null
        rows unbounded preceding
      ) as value
    from (
      select entries.cryptocurrency, entries.date as captured_at, entries.change, null::numeric as price
      from entries
      union all
      select snapshots.cryptocurrency, snapshots.captured_at, 0, snapshots.price
      from snapshots
    ) as event
  ),
  -- Each coin's value as changes from its previous snapshot, so a running sum over all coins gives, at each
  -- point, every coin's value at its newest snapshot so far.
  value_changes as (
    select
      held.captured_at,
      held.value - coalesce(lag(held.value) over (partition by held.cryptocurrency order by held.captured_at), 0)
        as change
    from held
    where held.value is not null
  )
  select value_changes.captured_at, round(sum(sum(value_changes.change)) over (order by value_changes.captured_at), 2)
  from value_changes
  group by value_changes.captured_at
  order by value_changes.captured_at;
end;
$$;
comment on function public.portfolio_history(text) is
  'The caller''s portfolio value in USD over a range (24h: a point a minute; 7d, 30d: a point an hour; '
  'all: an hour, or a day once it spans more than 30 days), oldest first, from their first coin entry on: at '
  'each point, the USD balance then plus the coins they held then (complete buys - sells up to it) at the '
  'prices then, to the cent. '
  'Only ever the caller''s own, admins included; none at aal1 for a person with a verified factor.';
revoke execute on function public.portfolio_history(text) from public, anon, authenticated, service_role;
grant execute on function public.portfolio_history(text) to authenticated;
