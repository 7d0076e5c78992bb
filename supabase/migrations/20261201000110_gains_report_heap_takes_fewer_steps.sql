-- HIFO's heap takes fewer PL/pgSQL steps a level: the sift-up tests the parent in its loop condition, the
-- sift-down picks the higher child and tests the end of the heap in one step each. Same order, same answers.

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
  heap integer[];
  heap_size integer;
  heap_next integer;
  pool_qty numeric;
  pool_cost numeric;
  pooled boolean;
  sale_method public.cost_basis_method;
  method_year integer;
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
  child integer;
  parent integer;
  moved integer;
  moved_unit numeric;
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
      heap := '{}'; heap_size := 0; heap_next := 1;
      pool_qty := 0; pool_cost := 0; pooled := false;
    end if;

    -- Nothing after the range changes the rows asked for, unless the lots still held are asked for too.
    continue when not p_with_open and movement.moved_at >= p_sold_before;

    if movement.quantity > 0 then
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

    -- A sale: the method in force in its tax year.
    if method_year is distinct from extract(year from movement.moved_at at time zone zone) then
      method_year := extract(year from movement.moved_at at time zone zone);
      sale_method := 'fifo';
      for i in 1 .. coalesce(array_length(election_years, 1), 0) loop
        exit when election_years[i] > method_year;
        sale_method := election_methods[i];
      end loop;
    end if;

    if sale_method <> 'average' and pooled then
      lot_cost := private.spread_pool_cost(lot_qty, pool_qty, pool_cost);
      -- Every open lot now costs the average per coin: the heap starts again.
      lot_unit := array_fill(pool_cost / pool_qty, array[lot_count]);
      heap := '{}'; heap_size := 0; heap_next := oldest;
      pooled := false;
    end if;
    if sale_method = 'hifo' then
      -- Sifted up through a hole (one write a level, not a swap); lots come in order, so every lot already in
      -- the heap is older and wins a tie.
      for i in heap_next .. lot_count loop
        continue when lot_qty[i] = 0;
        moved_unit := lot_unit[i];
        heap_size := heap_size + 1;
        child := heap_size;
        parent := child / 2;
        while parent > 0 and lot_unit[heap[parent]] < moved_unit loop
          heap[child] := heap[parent];
          child := parent;
          parent := child / 2;
        end loop;
        heap[child] := i;
      end loop;
      heap_next := lot_count + 1;
    end if;

    sold := -movement.quantity;
    wanted := sold;
    part_lots := '{}'; part_qty := '{}'; part_cost := '{}'; parts := 0;
    sale_basis := 0;
    while wanted > 0 loop
      if sale_method = 'hifo' then
        while heap_size > 0 and lot_qty[heap[1]] = 0 loop
          -- The last lot sifted down from the top through a hole.
          moved := heap[heap_size];
          moved_unit := lot_unit[moved];
          heap_size := heap_size - 1;
          parent := 1;
          child := 2;
          loop
            -- The higher of the two children (the older on a tie), in one step; the hole stops past the end.
            child := child + (child < heap_size and (lot_unit[heap[child + 1]] > lot_unit[heap[child]]
              or (lot_unit[heap[child + 1]] = lot_unit[heap[child]] and heap[child + 1] < heap[child])))::integer;
            exit when child > heap_size or moved_unit > lot_unit[heap[child]]
              or (moved_unit = lot_unit[heap[child]] and moved < heap[child]);
            heap[parent] := heap[child];
            parent := child;
            child := parent * 2;
          end loop;
          heap[parent] := moved;
        end loop;
        lot := case when heap_size > 0 then heap[1] end;
      else
        while oldest <= lot_count and lot_qty[oldest] = 0 loop
          oldest := oldest + 1;
        end loop;
        lot := case when oldest <= lot_count then oldest end;
      end if;
      -- Sold more than was bought before the sale (only an operator's backdating can do it): the rest is a
      -- part with no lot and no cost.
      exit when lot is null;
      take := least(wanted, lot_qty[lot]);
      parts := parts + 1;
      part_lots[parts] := lot;
      part_qty[parts] := take;
      if sale_method <> 'average' then
        part_cost[parts] := case when take = lot_qty[lot] then lot_cost[lot]
          else round(lot_cost[lot] * take / lot_qty[lot], 2) end;
        lot_cost[lot] := lot_cost[lot] - part_cost[parts];
        sale_basis := sale_basis + part_cost[parts];
      end if;
      lot_qty[lot] := lot_qty[lot] - take;
      wanted := wanted - take;
    end loop;

    if sale_method = 'average' and parts > 0 then
      pooled := true;
      sale_basis := case when sold - wanted = pool_qty then pool_cost
        else round(pool_cost * (sold - wanted) / pool_qty, 2) end;
      -- One part (the usual case) takes the whole basis, as the spread gives it, without a call.
      part_cost := case when parts = 1 then array[sale_basis]
        else private.spread_pool_cost(part_qty, sold - wanted, sale_basis) end;
    end if;
    pool_qty := pool_qty - (sold - wanted);
    pool_cost := pool_cost - sale_basis;

    -- Only the rows asked for: a report of one year still matches every earlier sale, but returns its own.
    continue when movement.moved_at < p_sold_from or movement.moved_at >= p_sold_before;
    -- One row per part; the proceeds split by quantity, the last part taking the rest.
    left_over := movement.usd;
    qty_left := sold;
    for i in 1 .. parts + case when wanted > 0 then 1 else 0 end loop
      qty_left := qty_left - coalesce(part_qty[i], wanted);
      kind := 'disposal'; cryptocurrency := coin; sale_id := movement.transaction_id; sold_at := movement.moved_at;
      lot_id := lot_ids[part_lots[i]]; acquired_at := lot_at[part_lots[i]]; quantity := coalesce(part_qty[i], wanted);
      proceeds := case when qty_left = 0 then left_over else round(movement.usd * quantity / sold, 2) end;
      left_over := left_over - proceeds;
      cost_basis := coalesce(part_cost[i], 0); method := sale_method;
      return next;
    end loop;
  end loop;
end;
$$;

