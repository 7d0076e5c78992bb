-- Cost basis and realised gains, computed in SQL from the journal (23-journal.sql), so every screen, statement
-- and export shows the same figures and the gains report reconciles with the books.
--
-- Lots: each transactions row whose journal entries move coins into a person's coin account (an approved buy)
-- is a lot: the quantity its postings credit the person, the USD its postings debit them, dated by the row's
-- date (its approval; the journal's recorded_at once the row is gone). Each row moving coins out (an approved
-- sell) is a sale, matched to the open lots of that coin by the person's method for the sale's tax year.
--
-- Methods (docs/features.md, "Cost basis"):
-- - fifo: the oldest open lot first; hifo: the open lot with the highest cost per coin first (the older on a tie);
-- - average: the sale's cost basis is its share of the pool (all open lots' cost x quantity sold / quantity
--   held); the quantity is taken from the lots oldest first, which gives each part its date acquired and
--   holding period. After an average year the pool's cost is spread over the open lots by quantity, so a
--   later fifo or hifo year starts from the average.
-- Rounding: a part of a lot carries cost x part / lot quantity rounded half up to the cent, and the part that
-- empties a lot carries all the cost left; proceeds and an average basis are split across a sale's parts the
-- same way. So cents are never made or lost: the cost bought = the bases realised + the cost of the open lots.
--
-- A method is chosen per tax year and applies from the next year: a year's sales are matched by the method in
-- force when they were made, so a report already read (or filed) never changes, and the lots a statement
-- showed for a sale stay the lots it consumed.

create type public.cost_basis_method as enum ('fifo', 'hifo', 'average');
comment on type public.cost_basis_method is
  'How sales are matched to lots: oldest first (fifo), highest cost first (hifo) or the pool''s average cost.';

alter table public.transaction_limits
  add column long_term_after_days integer not null default 365,
  add constraint transaction_limits_long_term_after_days_range check (long_term_after_days between 1 and 3660);
comment on column public.transaction_limits.long_term_after_days is
  'A disposal is long-term when the coins were held more than this many days (calendar days in the person''s '
  'time zone, from the day acquired to the day sold); short-term otherwise.';
grant update (long_term_after_days) on table public.transaction_limits to authenticated;

create table public.tax_settings (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  time_zone text not null default 'UTC',
  changed_at timestamptz not null default now(),
  constraint tax_settings_time_zone_length check (char_length(time_zone) between 1 and 64)
);
comment on table public.tax_settings is
  'A person''s tax settings: the time zone that decides which tax year (and which day) a sale or a purchase '
  'falls in. No row: UTC. Written only by set_tax_time_zone.';
comment on column public.tax_settings.user_id is 'The person.';
comment on column public.tax_settings.time_zone is 'An IANA time zone name known to the database (e.g. Europe/Paris).';
comment on column public.tax_settings.changed_at is 'When the person last set it.';
alter table public.tax_settings enable row level security;
revoke all on table public.tax_settings from anon, authenticated, service_role;
grant select on table public.tax_settings to authenticated;
create policy "People can read their own tax settings"
  on public.tax_settings for select to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read their own tax settings" on public.tax_settings is
  'Own row only; nobody writes through the API but set_tax_time_zone.';
create policy "Tax settings are read at aal2 or without a factor"
  on public.tax_settings as restrictive for select to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Tax settings are read at aal2 or without a factor" on public.tax_settings is
  'A person with a verified factor reads their tax settings only at aal2, as their money.';

create table public.cost_basis_elections (
  user_id uuid not null references public.profiles (id) on delete cascade,
  from_tax_year integer not null,
  method public.cost_basis_method not null,
  chosen_at timestamptz not null default now(),
  primary key (user_id, from_tax_year),
  constraint cost_basis_elections_year_range check (from_tax_year between 2000 and 9999)
);
comment on table public.cost_basis_elections is
  'A person''s choice of cost-basis method, in force from a tax year until a later choice; before the first, '
  'fifo. Written only by choose_cost_basis_method, which dates a choice from the next tax year.';
comment on column public.cost_basis_elections.user_id is 'The person.';
comment on column public.cost_basis_elections.from_tax_year is
  'The first tax year (calendar year in the person''s time zone) the method applies to.';
comment on column public.cost_basis_elections.method is 'fifo, hifo or average.';
comment on column public.cost_basis_elections.chosen_at is 'When the person chose it.';
alter table public.cost_basis_elections enable row level security;
revoke all on table public.cost_basis_elections from anon, authenticated, service_role;
grant select on table public.cost_basis_elections to authenticated;
create policy "People can read their own cost basis elections"
  on public.cost_basis_elections for select to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read their own cost basis elections" on public.cost_basis_elections is
  'Own rows only; nobody writes through the API but choose_cost_basis_method.';
create policy "Cost basis elections are read at aal2 or without a factor"
  on public.cost_basis_elections as restrictive for select to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Cost basis elections are read at aal2 or without a factor" on public.cost_basis_elections is
  'A person with a verified factor reads their elections only at aal2, as their money.';

create function private.tax_time_zone(p_user_id uuid) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select time_zone from public.tax_settings where user_id = p_user_id), 'UTC');
$$;
comment on function private.tax_time_zone(uuid) is 'A person''s tax time zone (UTC when they set none).';
revoke execute on function private.tax_time_zone(uuid) from public;

create function private.assert_reads_own_money() returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
begin
  if caller is null then
    raise exception 'Not signed in' using errcode = '42501';
  end if;
  if not private.session_is_aal2() and private.has_verified_factor() then
    raise exception 'Enter the code from your authenticator app first' using errcode = '42501';
  end if;
  return caller;
end;
$$;
comment on function private.assert_reads_own_money() is
  'The caller''s id, refusing anon and a factor holder below aal2 (the rule of the money tables'' restrictive '
  'policies, for the functions that read the journal for the person).';
revoke execute on function private.assert_reads_own_money() from public;

create function public.set_tax_time_zone(time_zone text) returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  caller uuid := private.assert_reads_own_money();
  zone text := btrim(set_tax_time_zone.time_zone);
begin
  if zone is null or not exists (select 1 from pg_catalog.pg_timezone_names where name = zone) then
    raise exception 'Unknown time zone: %', coalesce(set_tax_time_zone.time_zone, 'none') using errcode = 'P0001';
  end if;
  insert into public.tax_settings (user_id, time_zone) values (caller, zone)
  on conflict (user_id) do update set time_zone = excluded.time_zone, changed_at = now();
  return zone;
end;
$$;
comment on function public.set_tax_time_zone(text) is
  'Sets the caller''s tax time zone (an IANA name the database knows); answers it.';
revoke execute on function public.set_tax_time_zone(text) from public, anon, authenticated, service_role;
grant execute on function public.set_tax_time_zone(text) to authenticated;

create function private.tax_year_of(p_at timestamptz, p_time_zone text) returns integer
language sql
immutable
set search_path = ''
as $$
  select extract(year from p_at at time zone p_time_zone)::integer;
$$;
comment on function private.tax_year_of(timestamptz, text) is 'The tax year (calendar year in a time zone) of a moment.';

create function public.choose_cost_basis_method(method public.cost_basis_method) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  caller uuid := private.assert_reads_own_money();
  next_year integer := private.tax_year_of(now(), private.tax_time_zone(caller)) + 1;
begin
  if choose_cost_basis_method.method is null then
    raise exception 'Please choose a cost basis method' using errcode = 'P0001';
  end if;
  insert into public.cost_basis_elections (user_id, from_tax_year, method)
  values (caller, next_year, choose_cost_basis_method.method)
  on conflict (user_id, from_tax_year) do update set method = excluded.method, chosen_at = now();
  return next_year;
end;
$$;
comment on function public.choose_cost_basis_method(public.cost_basis_method) is
  'Chooses the caller''s cost-basis method from the next tax year on (answers that year): the current and past '
  'years keep the method their sales were matched by.';
revoke execute on function public.choose_cost_basis_method(public.cost_basis_method) from public, anon, authenticated, service_role;
grant execute on function public.choose_cost_basis_method(public.cost_basis_method) to authenticated;

-- What a person's lots and sales are, read from the journal: one row per transactions row that moved a coin of
-- theirs, net of its corrections, in order.
create function private.coin_movements(p_user_id uuid)
returns table (
  transaction_id uuid,
  cryptocurrency text,
  moved_at timestamptz,
  quantity numeric,
  usd numeric
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- PL/pgSQL keeps the plan from call to call (a SQL function planned it again at every call).
  return query
  -- A row journaled once and sealed (the usual case) is its entry: the coin leg joined to the USD leg of the same
  -- entry, with no aggregate. A row with corrections (an operator's change) or with an entry still awaiting seal
  -- is netted over its entries.
  with single as (
    select entries.transaction_id, accounts.currency, coin.amount as coin_amount, usd_leg.amount as usd_amount,
      entries.seq as first_seq, entries.recorded_at
    -- The account's currency, not the posting's: the coin legs then come from the postings index alone.
    from ledger.accounts
    join ledger.postings as coin on coin.account = accounts.name
    join ledger.entries on entries.seq = coin.entry_seq
    left join ledger.postings as usd_leg
      on usd_leg.entry_seq = coin.entry_seq and usd_leg.account = 'person:' || p_user_id || ':USD'
    where accounts.owner_id = p_user_id and accounts.currency <> 'USD'
      and entries.corrects is null
      -- Corrected entries are hashed once per call (a hashed SubPlan: no join over the person's entries, and
      -- each row one probe however many corrections the journal holds); the queue, short, is one array.
      and entries.seq not in (select later.corrects from ledger.entries as later where later.corrects is not null)
      and entries.transaction_id <> all (array(
        select queued.transaction_id from ledger.unsealed_entries as queued where queued.transaction_id is not null
      ))
  ),
  -- The person's own entries awaiting seal count at once (a buy shows in the cost basis when it commits); they
  -- come after every sealed entry, as they will be sealed.
  legs as (
    select entries.transaction_id, postings.currency, postings.amount, entries.seq, entries.recorded_at
    from ledger.entries
    join ledger.postings on postings.entry_seq = entries.seq
    where entries.transaction_id in (
        select fixed.transaction_id from ledger.entries as fixed where fixed.corrects is not null
        union
        select queued.transaction_id from ledger.unsealed_entries as queued
      )
      and postings.account = any (array(select name from ledger.accounts where owner_id = p_user_id))
    union all
    select queued.transaction_id, queued_leg.currency, queued_leg.amount, null, queued.recorded_at
    from ledger.unsealed_entries as queued
    cross join unnest(queued.accounts, queued.currencies, queued.amounts) as queued_leg (account, currency, amount)
    where queued_leg.account = any (array(select name from ledger.accounts where owner_id = p_user_id))
  ),
  corrected as (
    select legs.transaction_id,
      max(legs.currency) filter (where legs.currency <> 'USD'),
      sum(legs.amount) filter (where legs.currency <> 'USD'),
      sum(legs.amount) filter (where legs.currency = 'USD'),
      min(legs.seq), min(legs.recorded_at)
    from legs
    group by legs.transaction_id
  ),
  moves as (
    select * from single
    union all
    select * from corrected
  )
  -- A credit to the person's coin account (negative) is coins in: a lot; a debit is coins out: a sale.
  select moves.transaction_id, moves.currency, coalesce(transactions.date, moves.recorded_at),
    -moves.coin_amount, abs(coalesce(moves.usd_amount, 0))
  from moves
  left join public.transactions on transactions.id = moves.transaction_id
  where moves.coin_amount <> 0
  order by moves.currency, coalesce(transactions.date, moves.recorded_at), moves.first_seq;
end;
$$;
comment on function private.coin_movements(uuid) is
  'A person''s coin movements from the journal (sealed entries and those awaiting seal), net per transactions row: '
  'quantity > 0 a lot (coins in, usd its cost), < 0 a sale (usd its proceeds); dated by the row''s date, in order '
  'per coin.';
revoke execute on function private.coin_movements(uuid) from public;

-- Spreads a pool's cost over the open lots by quantity (the last open lot takes what is left), so each lot
-- carries its share of the average: on leaving an average year, and for the open lots after one.
create function private.spread_pool_cost(p_quantities numeric[], p_pool_quantity numeric, p_pool_cost numeric)
returns numeric[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  costs numeric[] := array_fill(0::numeric, array[coalesce(array_length(p_quantities, 1), 0)]);
  quantity_left numeric := p_pool_quantity;
  cost_left numeric := p_pool_cost;
begin
  for i in 1 .. coalesce(array_length(p_quantities, 1), 0) loop
    continue when p_quantities[i] = 0;
    quantity_left := quantity_left - p_quantities[i];
    costs[i] := case when quantity_left = 0 then cost_left else round(p_pool_cost * p_quantities[i] / p_pool_quantity, 2) end;
    cost_left := cost_left - costs[i];
  end loop;
  return costs;
end;
$$;
comment on function private.spread_pool_cost(numeric[], numeric, numeric) is
  'Each lot''s share of a pool''s cost by quantity, to the cent (the last open lot takes the rest); 0 for empty lots.';
revoke execute on function private.spread_pool_cost(numeric[], numeric, numeric) from public;

-- The matching. One pass over the movements in order (a last empty row closes the last coin): lots in arrays
-- (acquisition order); a pointer to the oldest open lot (fifo, and the quantities of an average sale); and the
-- pool (open quantity and cost) for the average. A fifo or average sale is matched when it comes; a fifo part
-- is returned as it is taken (its cost is final then). Hifo sales wait, in a row, until a sale of another
-- method or the end of the coin, then are matched at once: the open lots by cost per coin, highest first (the
-- older on a tie), each filling, oldest first, the waiting sales made after it was bought that still want
-- coins. A sale's take from a lot depends only on the lots ranked above it and on the earlier sales' takes
-- from that lot, so each sale gets exactly what it would take from the highest lots available at its time,
-- with no heap: a pointer per sale to the next one still wanting skips the filled ones.
create function private.cost_basis(
  p_user_id uuid,
  p_sold_from timestamptz default '-infinity',
  p_sold_before timestamptz default 'infinity',
  p_with_open boolean default true
)
returns table (
  kind text,
  cryptocurrency text,
  sale_id uuid,
  sold_at timestamptz,
  lot_id uuid,
  acquired_at timestamptz,
  quantity numeric,
  proceeds numeric,
  cost_basis numeric,
  method public.cost_basis_method
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  zone text := private.tax_time_zone(p_user_id);
  election_years integer[];
  election_methods public.cost_basis_method[];
  movement record;
  coin text;
  lot_ids uuid[];
  lot_at timestamptz[];
  lot_qty numeric[];
  lot_cost numeric[];
  lot_unit numeric[];
  lot_count integer;
  oldest integer;
  pool_qty numeric;
  pool_cost numeric;
  pooled boolean;
  sale_method public.cost_basis_method;
  method_year integer;
  -- Sales strictly between these are in method_year (a day inside its bounds in any time zone).
  method_from timestamptz := 'infinity';
  method_until timestamptz := '-infinity';
  rows_wanted boolean;
  sold numeric;
  wanted numeric;
  take numeric;
  lot integer;
  part_lots integer[];
  part_qty numeric[];
  part_cost numeric[];
  parts integer;
  sale_basis numeric;
  left_over numeric;
  qty_left numeric;
  -- The waiting hifo sales, in order: what each still wants, how many lots were bought before it, and its
  -- parts (a list through next_part, in the order taken).
  waiting integer := 0;
  waiting_ids uuid[];
  waiting_at timestamptz[];
  waiting_usd numeric[];
  waiting_sold numeric[];
  waiting_wanted numeric[];
  waiting_lots integer[];
  first_part integer[];
  last_part integer[];
  next_part integer[];
  ranked integer[];
  first_sale_after integer[];
  next_wanting integer[];
  filled integer;
  at_sale integer;
  hop integer;
  lot_left numeric;
  cost_left numeric;
  part integer;
begin
  select array_agg(from_tax_year order by from_tax_year), array_agg(elections.method order by from_tax_year)
  into election_years, election_methods
  from public.cost_basis_elections as elections where user_id = p_user_id;

  for movement in
    select *
    from private.coin_movements(p_user_id)
      with ordinality as moves (transaction_id, cryptocurrency, moved_at, quantity, usd, place)
    union all
    select null, null, null, null, null, 9223372036854775807
    order by place
  loop
    -- A lot of the coin goes on below; a sale, or the coin changing, is looked at first.
    if movement.quantity < 0 or coin is distinct from movement.cryptocurrency then
      -- A sale: the method in force in its tax year (the year looked up in the time zone only near its ends).
      if movement.quantity < 0 and not (movement.moved_at > method_from and movement.moved_at < method_until)
        and method_year is distinct from extract(year from movement.moved_at at time zone zone) then
        method_year := extract(year from movement.moved_at at time zone zone);
        method_from := make_timestamptz(method_year, 1, 1, 0, 0, 0, zone) + interval '24 hours';
        method_until := make_timestamptz(method_year + 1, 1, 1, 0, 0, 0, zone) - interval '24 hours';
        sale_method := 'fifo';
        for i in 1 .. coalesce(array_length(election_years, 1), 0) loop
          exit when election_years[i] > method_year;
          sale_method := election_methods[i];
        end loop;
      end if;

      -- The waiting hifo sales are matched before a sale of another method, and when the coin closes.
      if waiting > 0 and (coin is distinct from movement.cryptocurrency or sale_method <> 'hifo') then
        -- The first waiting sale after each lot (from the oldest open one) was bought.
        select array_agg(sales.place order by lots.lot)
        into first_sale_after
        from unnest(waiting_lots[1:waiting]) with ordinality as sales (bought, place)
          cross join lateral generate_series(coalesce(waiting_lots[sales.place - 1], oldest - 1) + 1, sales.bought)
            as lots (lot);
        -- The open lots bought before the last waiting sale, ranked in one sort.
        -- (Whole arrays: a slice would copy them first.)
        select array_agg(open_lots.place order by open_lots.unit desc, open_lots.place)
        into ranked
        from unnest(lot_unit, lot_qty) with ordinality as open_lots (unit, qty, place)
        where open_lots.place between oldest and waiting_lots[waiting] and open_lots.qty > 0;
        -- Each waiting sale points at itself while it wants coins, then at a later one (waiting + 1: none).
        next_wanting := array(select generate_series(1, waiting + 1));
        first_part := '{}'; last_part := '{}'; next_part := '{}';
        part_lots := '{}'; part_qty := '{}'; part_cost := '{}'; parts := 0;
        filled := 0;
        <<lots>>
        for r in 1 .. coalesce(array_length(ranked, 1), 0) loop
          exit when filled = waiting;
          lot := ranked[r];
          at_sale := first_sale_after[lot - oldest + 1];
          lot_left := lot_qty[lot];
          cost_left := lot_cost[lot];
          loop
            -- The first sale from at_sale still wanting, each pointer on the way moved two steps on.
            while next_wanting[at_sale] <> at_sale loop
              hop := next_wanting[next_wanting[at_sale]];
              next_wanting[at_sale] := hop;
              at_sale := hop;
            end loop;
            exit when at_sale > waiting;
            wanted := waiting_wanted[at_sale];
            parts := parts + 1;
            part_lots[parts] := lot;
            if last_part[at_sale] is null then
              first_part[at_sale] := parts;
            else
              next_part[last_part[at_sale]] := parts;
            end if;
            last_part[at_sale] := parts;
            if wanted < lot_left then
              part_qty[parts] := wanted;
              part_cost[parts] := round(cost_left * wanted / lot_left, 2);
              cost_left := cost_left - part_cost[parts];
              lot_left := lot_left - wanted;
              next_wanting[at_sale] := at_sale + 1;
              filled := filled + 1;
            else
              -- The part that empties the lot carries all the cost left.
              part_qty[parts] := lot_left;
              part_cost[parts] := cost_left;
              waiting_wanted[at_sale] := wanted - lot_left;
              if wanted = lot_left then
                next_wanting[at_sale] := at_sale + 1;
                filled := filled + 1;
              end if;
              lot_qty[lot] := 0;
              lot_cost[lot] := 0;
              continue lots;
            end if;
          end loop;
          -- No sale after the lot wants coins any more: what is left of it stays open.
          continue when lot_left = lot_qty[lot];
          lot_qty[lot] := lot_left;
          lot_cost[lot] := cost_left;
        end loop;
        -- The pool loses what the parts took.
        select pool_qty - coalesce(sum(taken.qty), 0), pool_cost - coalesce(sum(taken.cost), 0)
        into pool_qty, pool_cost
        from unnest(part_qty, part_cost) as taken (qty, cost);
        -- Their rows, as a sale's below (columns keep their values from row to row).
        kind := 'disposal'; cryptocurrency := coin; method := 'hifo';
        for i in 1 .. waiting loop
          continue when waiting_at[i] < p_sold_from or waiting_at[i] >= p_sold_before;
          sale_id := waiting_ids[i]; sold_at := waiting_at[i];
          left_over := waiting_usd[i];
          qty_left := waiting_sold[i];
          part := first_part[i];
          while qty_left > 0 loop
            -- Past the parts: what was sold beyond every lot, a part with no lot and no cost.
            lot_id := lot_ids[part_lots[part]]; acquired_at := lot_at[part_lots[part]];
            quantity := coalesce(part_qty[part], qty_left);
            qty_left := qty_left - quantity;
            proceeds := case when qty_left = 0 then left_over
              else round(waiting_usd[i] * quantity / waiting_sold[i], 2) end;
            left_over := left_over - proceeds;
            cost_basis := coalesce(part_cost[part], 0);
            return next;
            part := next_part[part];
          end loop;
        end loop;
        waiting := 0;
      end if;

      if coin is distinct from movement.cryptocurrency then
        if coin is not null and p_with_open then
          if pooled then
            lot_cost := private.spread_pool_cost(lot_qty, pool_qty, pool_cost);
          end if;
          for i in oldest .. lot_count loop
            continue when lot_qty[i] = 0;
            kind := 'open'; cryptocurrency := coin; sale_id := null; sold_at := null; lot_id := lot_ids[i];
            acquired_at := lot_at[i]; quantity := lot_qty[i]; proceeds := null; cost_basis := lot_cost[i];
            method := null;
            return next;
          end loop;
        end if;
        exit when movement.cryptocurrency is null;
        coin := movement.cryptocurrency;
        lot_ids := '{}'; lot_at := '{}'; lot_qty := '{}'; lot_cost := '{}'; lot_unit := '{}';
        lot_count := 0; oldest := 1;
        pool_qty := 0; pool_cost := 0; pooled := false;
      end if;
    end if;

    -- Nothing after the range changes the rows asked for, unless the lots still held are asked for too.
    if movement.quantity > 0 and (p_with_open or movement.moved_at < p_sold_before) then
      lot_count := lot_count + 1;
      lot_ids[lot_count] := movement.transaction_id;
      lot_at[lot_count] := movement.moved_at;
      lot_qty[lot_count] := movement.quantity;
      lot_cost[lot_count] := movement.usd;
      lot_unit[lot_count] := movement.usd / movement.quantity;
      pool_qty := pool_qty + movement.quantity;
      pool_cost := pool_cost + movement.usd;
      continue;
    end if;
    continue when not p_with_open and movement.moved_at >= p_sold_before;

    if sale_method <> 'average' and pooled then
      lot_cost := private.spread_pool_cost(lot_qty, pool_qty, pool_cost);
      -- Every open lot now costs the average per coin (an emptied pool has no open lot, and no average).
      lot_unit := array_fill(pool_cost / nullif(pool_qty, 0), array[lot_count]);
      pooled := false;
    end if;

    sold := -movement.quantity;
    if sale_method = 'hifo' then
      if waiting = 0 then
        waiting_ids := '{}'; waiting_at := '{}'; waiting_usd := '{}'; waiting_sold := '{}'; waiting_wanted := '{}';
        waiting_lots := '{}';
      end if;
      waiting := waiting + 1;
      waiting_ids[waiting] := movement.transaction_id;
      waiting_at[waiting] := movement.moved_at;
      waiting_usd[waiting] := movement.usd;
      waiting_sold[waiting] := sold;
      waiting_wanted[waiting] := sold;
      waiting_lots[waiting] := lot_count;
      continue;
    end if;

    wanted := sold;
    rows_wanted := movement.moved_at >= p_sold_from and movement.moved_at < p_sold_before;
    -- Only the rows asked for: a report of one year still matches every earlier sale, but returns its own. One
    -- row per part; the proceeds split by quantity, the last part taking the rest (columns keep their values
    -- from row to row).
    kind := 'disposal'; cryptocurrency := coin; sale_id := movement.transaction_id; sold_at := movement.moved_at;
    method := sale_method;
    left_over := movement.usd;

    if sale_method = 'fifo' then
      -- A fifo part's cost is known when it is taken: each is returned at once.
      while wanted > 0 loop
        while oldest <= lot_count and lot_qty[oldest] = 0 loop
          oldest := oldest + 1;
        end loop;
        if oldest > lot_count then
          -- Sold more than was bought before the sale (only an operator's backdating can do it): the rest is a
          -- part with no lot and no cost.
          lot := null; take := wanted; cost_basis := 0;
        else
          lot := oldest;
          take := least(wanted, lot_qty[lot]);
          cost_basis := case when take = lot_qty[lot] then lot_cost[lot]
            else round(lot_cost[lot] * take / lot_qty[lot], 2) end;
          lot_cost[lot] := lot_cost[lot] - cost_basis;
          lot_qty[lot] := lot_qty[lot] - take;
          pool_qty := pool_qty - take;
          pool_cost := pool_cost - cost_basis;
        end if;
        wanted := wanted - take;
        continue when not rows_wanted;
        lot_id := lot_ids[lot]; acquired_at := lot_at[lot]; quantity := take;
        proceeds := case when wanted = 0 then left_over else round(movement.usd * take / sold, 2) end;
        left_over := left_over - proceeds;
        return next;
      end loop;
      continue;
    end if;

    -- An average sale: its quantity from the lots oldest first, its basis the pool's share, spread over them.
    part_lots := '{}'; part_qty := '{}'; part_cost := '{}'; parts := 0;
    while wanted > 0 loop
      while oldest <= lot_count and lot_qty[oldest] = 0 loop
        oldest := oldest + 1;
      end loop;
      exit when oldest > lot_count;
      take := least(wanted, lot_qty[oldest]);
      parts := parts + 1;
      part_lots[parts] := oldest;
      part_qty[parts] := take;
      lot_qty[oldest] := lot_qty[oldest] - take;
      wanted := wanted - take;
    end loop;
    sale_basis := 0;
    if parts > 0 then
      pooled := true;
      sale_basis := case when sold - wanted = pool_qty then pool_cost
        else round(pool_cost * (sold - wanted) / pool_qty, 2) end;
      -- One part (the usual case) takes the whole basis, as the spread gives it, without a call.
      part_cost := case when parts = 1 then array[sale_basis]
        else private.spread_pool_cost(part_qty, sold - wanted, sale_basis) end;
    end if;
    pool_qty := pool_qty - (sold - wanted);
    pool_cost := pool_cost - sale_basis;

    continue when not rows_wanted;
    qty_left := sold;
    for i in 1 .. parts + case when wanted > 0 then 1 else 0 end loop
      lot_id := lot_ids[part_lots[i]]; acquired_at := lot_at[part_lots[i]]; quantity := coalesce(part_qty[i], wanted);
      qty_left := qty_left - quantity;
      proceeds := case when qty_left = 0 then left_over else round(movement.usd * quantity / sold, 2) end;
      left_over := left_over - proceeds;
      cost_basis := coalesce(part_cost[i], 0);
      return next;
    end loop;
  end loop;
end;
$$;
comment on function private.cost_basis(uuid, timestamptz, timestamptz, boolean) is
  'A person''s sales matched to lots by the method of each sale''s tax year (file comment): one disposal row '
  'per lot a sale sold in [p_sold_from, p_sold_before) consumed (proceeds and cost basis in cents; a part sold '
  'beyond every lot has no lot and no cost), then, with p_with_open, one open row per lot still held (its '
  'quantity and the cost left). Every sale is matched whatever the range; only the rows asked for are returned.';
revoke execute on function private.cost_basis(uuid, timestamptz, timestamptz, boolean) from public;

create type public.disposal as (
  sale_id uuid,
  lot_id uuid,
  cryptocurrency text,
  acquired_at timestamptz,
  sold_at timestamptz,
  date_acquired date,
  date_sold date,
  quantity numeric,
  proceeds numeric,
  cost_basis numeric,
  gain numeric,
  term text,
  method public.cost_basis_method
);
comment on type public.disposal is
  'One part of a sale: the coins it took from one lot, with the days acquired and sold in the person''s tax time '
  'zone, proceeds, cost basis and gain in USD (cents), the holding period (short or long) and the method.';

create function public.disposals(sold_from timestamptz, sold_before timestamptz)
returns setof public.disposal
language sql
stable
security definer
set search_path = ''
as $$
  -- Materialized: inlined, the zone and the threshold would be looked up again for every row of the matching.
  with caller as materialized (
    select id, private.tax_time_zone(id) as zone,
      (select long_term_after_days from public.transaction_limits where transaction_limits.id) as long_after
    from (select private.assert_reads_own_money() as id) as signed_in
  )
  select parts.sale_id, parts.lot_id, parts.cryptocurrency, parts.acquired_at, parts.sold_at,
    (parts.acquired_at at time zone caller.zone)::date, (parts.sold_at at time zone caller.zone)::date,
    -- Scale 2 on the way out: the values are whole cents already; a row's own amount may carry more zeros.
    parts.quantity, round(parts.proceeds, 2), round(parts.cost_basis, 2), round(parts.proceeds - parts.cost_basis, 2),
    case
      when parts.acquired_at is null then null
      when (parts.sold_at at time zone caller.zone)::date - (parts.acquired_at at time zone caller.zone)::date
        > caller.long_after then 'long'
      else 'short'
    end,
    parts.method
  from caller, private.cost_basis(caller.id, sold_from, sold_before, false) as parts
  where parts.kind = 'disposal'
  order by parts.sold_at, parts.sale_id, parts.acquired_at nulls last, parts.lot_id;
$$;
comment on function public.disposals(timestamptz, timestamptz) is
  'The caller''s disposals sold in [sold_from, sold_before), one row per lot each sale consumed, oldest sale '
  'first; long-term past transaction_limits.long_term_after_days. Factor holders read them at aal2 only.';
revoke execute on function public.disposals(timestamptz, timestamptz) from public, anon, authenticated, service_role;
grant execute on function public.disposals(timestamptz, timestamptz) to authenticated;

create function public.realised_gains(tax_year integer)
returns setof public.disposal
language sql
stable
security definer
set search_path = ''
as $$
  select gains.*
  from (select private.tax_time_zone(private.assert_reads_own_money()) as zone) as caller,
    public.disposals(
      make_timestamptz(tax_year, 1, 1, 0, 0, 0, caller.zone),
      make_timestamptz(tax_year + 1, 1, 1, 0, 0, 0, caller.zone)
    ) as gains;
$$;
comment on function public.realised_gains(integer) is
  'The caller''s disposals of a tax year (the calendar year in their tax time zone): the gains report''s lines.';
revoke execute on function public.realised_gains(integer) from public, anon, authenticated, service_role;
grant execute on function public.realised_gains(integer) to authenticated;

create function public.open_lots()
returns table (
  lot_id uuid,
  cryptocurrency text,
  acquired_at timestamptz,
  quantity numeric,
  cost_basis numeric
)
language sql
stable
security definer
set search_path = ''
as $$
  select lots.lot_id, lots.cryptocurrency, lots.acquired_at, lots.quantity, round(lots.cost_basis, 2)
  from private.cost_basis(private.assert_reads_own_money()) as lots
  where lots.kind = 'open'
  order by lots.cryptocurrency, lots.acquired_at, lots.lot_id;
$$;
comment on function public.open_lots() is
  'The caller''s lots still held, after every sale so far: quantity left and the cost it carries (cents), the '
  'basis of the unrealised gain. Factor holders read them at aal2 only.';
revoke execute on function public.open_lots() from public, anon, authenticated, service_role;
grant execute on function public.open_lots() to authenticated;
