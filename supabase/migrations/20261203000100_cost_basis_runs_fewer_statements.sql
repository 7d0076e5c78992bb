-- The matching runs fewer PL/pgSQL statements, with the same answers (same rows, in the same order): a fifo
-- part is returned as it is taken, with no arrays of parts and no second loop; a lot of the coin being matched
-- is looked at once; a sale's tax year is looked up in the time zone only near the ends of the year; hifo
-- ranks the whole arrays (a slice copied them first) and updates the pool once per run of sales.
--
-- A later year's fifo or hifo sale after an average year had sold every coin (possible when an operator dates a
-- sell before a buy) made the matching divide by the emptied pool, and the person's whole gains report and
-- open lots failed. An emptied pool has no open lot, so no average to hand on: the lots' cost per coin is left
-- empty. Nothing else changes.

-- The matching. One pass over the movements in order (a last empty row closes the last coin): lots in arrays
-- (acquisition order); a pointer to the oldest open lot (fifo, and the quantities of an average sale); and the
-- pool (open quantity and cost) for the average. A fifo or average sale is matched when it comes; a fifo part
-- is returned as it is taken (its cost is final then). Hifo sales wait, in a row, until a sale of another
-- method or the end of the coin, then are matched at once: the open lots by cost per coin, highest first (the
-- older on a tie), each filling, oldest first, the waiting sales made after it was bought that still want
-- coins. A sale's take from a lot depends only on the lots ranked above it and on the earlier sales' takes
-- from that lot, so each sale gets exactly what it would take from the highest lots available at its time,
-- with no heap: a pointer per sale to the next one still wanting skips the filled ones.
create or replace function private.cost_basis(
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
