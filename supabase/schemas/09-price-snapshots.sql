-- Prices on the server. The market function (the one caller of the market-data provider) records each
-- fresh answer here through record_price_snapshots (service role only), so SQL can price an approval and
-- the history can be charted. Everyone may read them: they are public market data.
--
-- Bounded growth: one snapshot per coin per minute (the market function refreshes at most once a minute),
-- kept for a day, and the first snapshot of each hour (marked `hourly` when it is written) kept for a
-- year; everything else is pruned by the same call that records. Per coin that is at most 1,440 + 8,760
-- rows (about 10,200; about 102,000 for the top 10): minutes are the finest grain the market cache
-- serves and what a 24 h chart needs; hours are plenty for the 7 d, 30 d and one-year views.

create table public.price_snapshots (
  cryptocurrency text not null,
  price numeric not null,
  captured_at timestamptz not null,
  hourly boolean not null,
  primary key (cryptocurrency, captured_at),
  constraint price_snapshots_price_positive check (price > 0 and price < 1e12),
  constraint price_snapshots_cryptocurrency_is_id check (cryptocurrency ~ '^[a-z0-9][a-z0-9-]{0,99}$'),
  constraint price_snapshots_captured_on_the_minute check (captured_at = date_trunc('minute', captured_at))
);
comment on table public.price_snapshots is
  'The provider''s USD price of each coin, once a minute for a day and once an hour for a year.';
comment on column public.price_snapshots.cryptocurrency is 'The coin''s market-data id (e.g. bitcoin).';
comment on column public.price_snapshots.price is 'USD per coin as the provider answered it (exact, unrounded).';
comment on column public.price_snapshots.captured_at is 'The minute the price was fetched.';
comment on column public.price_snapshots.hourly is
  'The first snapshot of its hour for this coin: kept for a year; the others are kept for a day.';
create index price_snapshots_minutely_captured_at_idx on public.price_snapshots (captured_at) where not hourly;
comment on index public.price_snapshots_minutely_captured_at_idx is 'Finds the minute snapshots past a day.';
create index price_snapshots_captured_at_idx on public.price_snapshots (captured_at);
comment on index public.price_snapshots_captured_at_idx is 'Finds the snapshots past a year; ranges of all coins.';
-- The 7 d, 30 d and all ranges read hourly points only: without this index they would step over the
-- day's minute snapshots (1,440 per coin) in the primary key.
create index price_snapshots_hourly_idx on public.price_snapshots (cryptocurrency, captured_at)
  include (price)
  where hourly;
comment on index public.price_snapshots_hourly_idx is
  'A coin''s hourly snapshots with their price, for the 7 d, 30 d and all ranges (index-only scans).';
alter table public.price_snapshots enable row level security;
revoke all on table public.price_snapshots from anon, authenticated, service_role;
grant select on table public.price_snapshots to anon, authenticated, service_role;
create policy "Everyone can read prices"
  on public.price_snapshots for select to anon, authenticated, service_role
  using (true);
comment on policy "Everyone can read prices" on public.price_snapshots is
  'Prices are public market data; nobody writes them but record_price_snapshots.';
create view public.latest_prices
with (security_invoker = true)
as
select distinct on (cryptocurrency) cryptocurrency, price, captured_at
from public.price_snapshots
order by cryptocurrency, captured_at desc;
comment on view public.latest_prices is 'The newest snapshot of each coin (security invoker: readable by everyone).';
comment on column public.latest_prices.price is 'USD per coin at captured_at.';
comment on column public.latest_prices.captured_at is 'When that price was fetched.';
revoke all on table public.latest_prices from anon, authenticated, service_role;
grant select on table public.latest_prices to anon, authenticated, service_role;
create function private.prune_price_snapshots() returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.price_snapshots where not hourly and captured_at < now() - interval '1 day';
  delete from public.price_snapshots where captured_at < now() - interval '365 days';
$$;
comment on function private.prune_price_snapshots() is
  'Drops minute snapshots older than a day and every snapshot older than a year.';
revoke execute on function private.prune_price_snapshots() from public;
create function public.record_price_snapshots(prices jsonb) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  minute timestamptz := date_trunc('minute', now());
  recorded integer;
begin
  if jsonb_typeof(prices) is distinct from 'array' then
    raise exception 'Prices must be a list of {cryptocurrency, price}' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_array_elements(prices) as item
    where jsonb_typeof(item -> 'cryptocurrency') is distinct from 'string'
      or jsonb_typeof(item -> 'price') is distinct from 'number'
  ) then
    raise exception 'Prices must be a list of {cryptocurrency, price}' using errcode = '22023';
  end if;
  -- One row per coin per minute: a second call in the same minute keeps the first price.
  insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
  select distinct on (item ->> 'cryptocurrency')
    item ->> 'cryptocurrency',
    (item ->> 'price')::numeric,
    minute,
    not exists (
      select 1 from public.price_snapshots as earlier
      where earlier.cryptocurrency = item ->> 'cryptocurrency'
        and earlier.captured_at >= date_trunc('hour', minute)
    )
  from jsonb_array_elements(prices) as item
  on conflict (cryptocurrency, captured_at) do nothing;
  get diagnostics recorded = row_count;
  perform private.prune_price_snapshots();
  return recorded;
end;
$$;
comment on function public.record_price_snapshots(jsonb) is
  'Service role only (the market function): records this minute''s price of each coin given as '
  '[{cryptocurrency, price}] and prunes what is past its keeping time; returns the rows written.';
revoke execute on function public.record_price_snapshots(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.record_price_snapshots(jsonb) to service_role;
-- What a pending request would fill at now, for the admin queues (which show it before an admin approves).

create function private.fresh_price(p_cryptocurrency text) returns numeric
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
comment on function private.fresh_price(text) is
  'The coin''s newest snapshot price if recorded in the last 2 minutes (what private.current_price fills at), '
  'else null: for showing, where private.current_price would refuse.';
revoke execute on function private.fresh_price(text) from public;
grant execute on function private.fresh_price(text) to authenticated, service_role;
