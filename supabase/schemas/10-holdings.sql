-- Holdings. Approving a buy request records the coin quantity bought at the server's current price (the
-- newest price snapshot of the coin, at most 10 minutes old), in the same locked step as the balance
-- check. A person's holdings per coin are derived from the ledger (bought - sold) by the holdings view
-- (17-sell-requests.sql, as pending sells reserve coins), never kept in a second place that could drift.
--
-- Precision: quantity = USD amount / price, truncated (never rounded up: nobody gets more coin than they
-- paid for) to 18 decimal places, the finest unit of the common coins (ether's wei); the price is the
-- snapshot's exact numeric. A buy entry without a quantity (recorded before prices were; a fresh project
-- has none) counts for nothing in the holdings.

-- One reading of "current": the price an approval fills at is the one the queue shows.
create function private.current_price(p_cryptocurrency text) returns numeric
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  current numeric := private.fresh_price(p_cryptocurrency);
begin
  if current is null then
    raise exception 'No current price for %: none was recorded in the last 2 minutes', p_cryptocurrency
      using errcode = 'P0001';
  end if;
  return current;
end;
$$;
comment on function private.current_price(text) is
  'The server''s current USD price of a coin (its newest snapshot); refuses one older than 2 minutes.';
revoke execute on function private.current_price(text) from public;
create function private.coin_quantity(p_amount numeric, p_price numeric) returns numeric
language plpgsql
immutable
set search_path = ''
as $$
begin
  -- Scale 20 before dividing, so the quotient is exact to the 18 places kept.
  return trunc(round(p_amount, 20) / p_price, 18);
end;
$$;
comment on function private.coin_quantity(numeric, numeric) is
  'Coins a USD amount buys at a price: truncated to 18 decimal places.';
