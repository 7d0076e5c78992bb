-- The history chart includes cash (issue 30): a sale of 0.1 ETH showed as a -32.85 % crash because the USD it
-- brought in was left out. The value at a point is now the USD balance then plus the coins held then at their
-- prices then.
create or replace function public.portfolio_history(range text)
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
