-- The gains report read the caller's tax time zone and long-term threshold once per matched row: the planner
-- inlined the one-row `caller` CTE into every expression that used it (15,000 rows, 360 ms of a 450 ms report).
create or replace function public.disposals(sold_from timestamptz, sold_before timestamptz)
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
  from caller, private.cost_basis(caller.id) as parts
  where parts.kind = 'disposal' and parts.sold_at >= sold_from and parts.sold_at < sold_before
  order by parts.sold_at, parts.sale_id, parts.acquired_at nulls last, parts.lot_id;
$$;
